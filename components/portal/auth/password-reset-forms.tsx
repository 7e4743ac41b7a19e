"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { PASSWORD_RESET_TTL_MINUTES } from "@/lib/portal/public-constants";
import { errorMessage, fieldErrors, PortalApiError, portalFetch, text } from "../api";

const t = text.passwordReset;

function linkClass() {
  return "font-semibold text-blue-800 underline";
}

/** "Forgot password": the same answer whether or not the email has an account. */
export function ForgotPasswordForm() {
  const request = useMutation({
    mutationFn: (email: string) => portalFetch("POST", "/api/portal/password-reset", { email }),
  });
  const error = request.error;
  const code = error instanceof PortalApiError ? error.code : null;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        request.mutate(String(new FormData(event.currentTarget).get("email") ?? ""));
      }}
      noValidate
    >
      <p className="mt-2 text-slate-700">{t.forgotIntro}</p>
      {request.isSuccess && <Notice tone="success">{t.sent(PASSWORD_RESET_TTL_MINUTES)}</Notice>}
      {error && !fieldErrors(error, "email") && (
        <Notice tone="error">{code === "mail_not_configured" ? t.mailNotConfigured : code === "rate_limited" ? t.rateLimited : errorMessage(error)}</Notice>
      )}
      <Field label={t.email} name="email" type="email" autoComplete="email" required errors={fieldErrors(error, "email")} />
      <Button type="submit" className="mt-6 w-full" disabled={request.isPending}>
        {request.isPending ? t.sending : t.send}
      </Button>
      <p className="mt-6">
        <Link className={linkClass()} href="/sign-in">
          {t.backToSignIn}
        </Link>
      </p>
    </form>
  );
}

/** The page of the emailed link: the token is in the URL fragment (never sent to a server log), posted with the new password. */
export function ResetPasswordForm() {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    const fromFragment = new URLSearchParams(window.location.hash.slice(1)).get("token");
    setToken(fromFragment);
    if (fromFragment) window.history.replaceState(null, "", window.location.pathname);
  }, []);
  const reset = useMutation({
    mutationFn: (password: string) => portalFetch("POST", "/api/portal/password-reset/confirm", { token, password }),
    onSuccess: () => window.location.assign("/sign-in?reset=1"),
  });
  const error = reset.error;
  const invalid = error instanceof PortalApiError && (error.code === "password_reset_invalid" || Boolean(fieldErrors(error, "token")));
  if (token === null || invalid) {
    return (
      <div>
        <Notice tone="error">{token === null ? t.missingToken : t.invalidLink}</Notice>
        <p className="mt-6">
          <Link className={linkClass()} href="/forgot-password">
            {t.askAgain}
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        reset.mutate(String(new FormData(event.currentTarget).get("password") ?? ""));
      }}
      noValidate
    >
      {error && !fieldErrors(error, "password") && <Notice tone="error">{errorMessage(error)}</Notice>}
      <Field
        label={t.newPassword}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={text.signUp.passwordHint}
        errors={fieldErrors(error, "password")}
      />
      <Button type="submit" className="mt-6 w-full" disabled={!token || reset.isPending || reset.isSuccess}>
        {t.save}
      </Button>
    </form>
  );
}

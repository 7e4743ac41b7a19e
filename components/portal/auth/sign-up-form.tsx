"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { errorMessage, fieldErrors, PortalApiError, portalFetch, text } from "../api";
import { useCsrfToken } from "./csrf";
import { signInWithPassword } from "./sign-in";

const t = text.signUp;

/** Sign-up: creates the developer and organization (POST /api/portal/sign-up), then signs in through next-auth. */
export function SignUpForm() {
  const csrfToken = useCsrfToken();
  const signUp = useMutation({
    mutationFn: async (form: FormData) => {
      const email = String(form.get("email") ?? "");
      const password = String(form.get("password") ?? "");
      await portalFetch("POST", "/api/portal/sign-up", {
        email,
        password,
        name: String(form.get("name") ?? "") || undefined,
        organization_name: String(form.get("organization_name") ?? "") || undefined,
      });
      const error = await signInWithPassword({ csrfToken: csrfToken ?? "", email, password, callbackUrl: "/dashboard" });
      if (error) throw new PortalApiError(401, error, text.signIn.failed);
    },
    onSuccess: () => window.location.assign("/dashboard"),
  });
  const error = signUp.error;
  const exists = error instanceof PortalApiError && error.code === "already_exists";
  const hasFieldErrors = error instanceof PortalApiError && Object.keys(error.fields).length > 0;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        signUp.mutate(new FormData(event.currentTarget));
      }}
      noValidate
    >
      <p className="mt-2 text-slate-700">{t.intro}</p>
      {error && !hasFieldErrors && <Notice tone="error">{exists ? t.exists : errorMessage(error)}</Notice>}
      <Field label={t.name} name="name" autoComplete="name" maxLength={120} errors={fieldErrors(error, "name")} />
      <Field label={t.organization} name="organization_name" autoComplete="organization" maxLength={120} errors={fieldErrors(error, "organization_name")} />
      <Field label={t.email} name="email" type="email" autoComplete="email" required errors={fieldErrors(error, "email")} />
      <Field
        label={t.password}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={t.passwordHint}
        errors={fieldErrors(error, "password")}
      />
      <Button type="submit" className="mt-6 w-full" disabled={!csrfToken || signUp.isPending || signUp.isSuccess}>
        {signUp.isPending || signUp.isSuccess ? t.submitting : t.submit}
      </Button>
      <p className="mt-6 text-slate-700">
        {t.haveAccount}{" "}
        <Link className="font-semibold text-blue-800 underline" href="/sign-in">
          {t.signInLink}
        </Link>
      </p>
    </form>
  );
}

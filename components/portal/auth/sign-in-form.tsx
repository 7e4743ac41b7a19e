"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { SIGN_IN_ERRORS } from "@/lib/portal/public-constants";
import { text } from "../api";
import { useCsrfToken } from "./csrf";
import { safeCallbackPath, signInWithPassword } from "./sign-in";

const t = text.signIn;

export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  if (code === SIGN_IN_ERRORS.invalid) return t.invalid;
  if (code === SIGN_IN_ERRORS.rateLimited) return t.rateLimited;
  return t.failed;
}

export function SignInForm({ callbackUrl, initialError, notice }: { callbackUrl?: string; initialError?: string; notice?: string }) {
  const csrfToken = useCsrfToken();
  const target = safeCallbackPath(callbackUrl);
  const signIn = useMutation({
    mutationFn: async (form: FormData) => {
      const error = await signInWithPassword({
        csrfToken: csrfToken ?? "",
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        callbackUrl: target,
      });
      if (error) throw new Error(error);
    },
    onSuccess: () => window.location.assign(target),
  });
  const message = signIn.isError ? signInErrorMessage(signIn.error.message) : signIn.isIdle ? signInErrorMessage(initialError) : null;
  return (
    <form
      method="post"
      action="/api/portal/auth/callback/credentials"
      onSubmit={(event) => {
        event.preventDefault();
        signIn.mutate(new FormData(event.currentTarget));
      }}
      noValidate
    >
      {notice && !message && <Notice tone="success">{notice}</Notice>}
      {message && <Notice tone="error">{message}</Notice>}
      <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
      <input type="hidden" name="callbackUrl" value={target} />
      <Field label={t.email} name="email" type="email" autoComplete="username" required />
      <Field label={t.password} name="password" type="password" autoComplete="current-password" required />
      <Button type="submit" className="mt-6 w-full" disabled={!csrfToken || signIn.isPending || signIn.isSuccess}>
        {signIn.isPending || signIn.isSuccess ? t.submitting : t.submit}
      </Button>
      <p className="mt-6 text-slate-700">
        <Link className="font-semibold text-blue-800 underline" href="/forgot-password">
          {t.forgotLink}
        </Link>
      </p>
      <p className="mt-2 text-slate-700">
        {t.noAccount}{" "}
        <Link className="font-semibold text-blue-800 underline" href="/sign-up">
          {t.signUpLink}
        </Link>
      </p>
    </form>
  );
}

"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import type { EmailConfirmed } from "@/lib/portal/email-verification";
import { EMAIL_VERIFICATION_TTL_HOURS } from "@/lib/portal/public-constants";
import { errorMessage, PortalApiError, portalFetch, text } from "../api";

const t = text.emailVerification;

/**
 * The page of the mailed link: the token is in the URL fragment (never sent
 * to a server log, and a mail scanner's GET of the link verifies nothing);
 * the page posts it once.
 */
export function VerifyEmailConfirmation() {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const posted = useRef(false);
  const confirm = useMutation({
    mutationFn: (value: string) => portalFetch<EmailConfirmed>("POST", "/api/portal/email-verification/confirm", { token: value }),
  });
  const { mutate } = confirm;
  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    const fromFragment = new URLSearchParams(window.location.hash.slice(1)).get("token");
    setToken(fromFragment);
    if (fromFragment) {
      window.history.replaceState(null, "", window.location.pathname);
      mutate(fromFragment);
    }
  }, [mutate]);
  const error = confirm.error;
  const invalid = error instanceof PortalApiError && (error.code === "email_verification_invalid" || error.code === "invalid_request");
  return (
    <div>
      {(token === undefined || confirm.isPending) && <Notice>{t.verifying}</Notice>}
      {token === null && <Notice tone="error">{t.missingToken}</Notice>}
      {confirm.isSuccess && <Notice tone="success">{t.verified(confirm.data.welcome_credit > 0, confirm.data.welcome_credit_withheld)}</Notice>}
      {error && <Notice tone="error">{invalid ? t.invalidLink : errorMessage(error)}</Notice>}
      <p className="mt-6">
        <Link className="font-semibold text-blue-800 underline" href="/dashboard">
          {t.toPortal}
        </Link>
      </p>
    </div>
  );
}

/**
 * Shown on every signed-in page until the email is verified: why it
 * matters, and "send the link again" (or, on a server that sends no mail,
 * that the administrator verifies it).
 */
export function VerifyEmailBanner({ canMail }: { canMail: boolean }) {
  const resend = useMutation({ mutationFn: () => portalFetch("POST", "/api/portal/email-verification") });
  const code = resend.error instanceof PortalApiError ? resend.error.code : null;
  return (
    <Notice tone="warning" live="off">
      <p>{canMail ? t.banner : t.bannerWithoutMail}</p>
      {resend.isSuccess && <p role="status">{t.resent(EMAIL_VERIFICATION_TTL_HOURS)}</p>}
      {resend.error && (
        <p role="alert">{code === "rate_limited" ? t.rateLimited : code === "mail_not_configured" ? t.mailNotConfigured : errorMessage(resend.error)}</p>
      )}
      {canMail && (
        <Button variant="secondary" className="mt-3 min-h-10 px-3 py-1.5 text-sm" disabled={resend.isPending} onClick={() => resend.mutate()}>
          {resend.isPending ? t.resending : t.resend}
        </Button>
      )}
    </Notice>
  );
}

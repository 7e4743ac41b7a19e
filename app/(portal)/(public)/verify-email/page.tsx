import type { Metadata } from "next";
import { VerifyEmailConfirmation } from "@/components/portal/auth/email-verification";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.emailVerification.pageTitle} · ${t.productName}`, referrer: "no-referrer" };

export default function VerifyEmailPage() {
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.emailVerification.pageTitle}</h1>
      <VerifyEmailConfirmation />
    </>
  );
}

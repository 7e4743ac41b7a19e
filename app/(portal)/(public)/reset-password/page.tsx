import type { Metadata } from "next";
import { ResetPasswordForm } from "@/components/portal/auth/password-reset-forms";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.passwordReset.resetTitle} · ${t.productName}`, referrer: "no-referrer" };

export default function ResetPasswordPage() {
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.passwordReset.resetTitle}</h1>
      <ResetPasswordForm />
    </>
  );
}

import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/portal/auth/password-reset-forms";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.passwordReset.forgotTitle} · ${t.productName}` };

export default function ForgotPasswordPage() {
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.passwordReset.forgotTitle}</h1>
      <ForgotPasswordForm />
    </>
  );
}

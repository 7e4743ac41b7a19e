import type { Metadata } from "next";
import { SignUpForm } from "@/components/portal/auth/sign-up-form";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.signUp.title} · ${t.productName}` };

export default function SignUpPage() {
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.signUp.heading}</h1>
      <SignUpForm />
    </>
  );
}

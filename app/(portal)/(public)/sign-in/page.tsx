import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/portal/auth/sign-in-form";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { signedInDeveloper } from "@/lib/portal/page-access";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.signIn.title} · ${t.productName}` };

type Search = Promise<{ callbackUrl?: string; error?: string; reset?: string; signedOut?: string }>;

export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const query = await searchParams;
  if (await signedInDeveloper()) redirect("/dashboard");
  const notice = query.reset ? t.signIn.passwordChanged : query.signedOut ? t.signIn.signedOut : undefined;
  return (
    <>
      <h1 className="text-2xl font-semibold text-slate-900">{t.signIn.heading}</h1>
      <SignInForm callbackUrl={query.callbackUrl} initialError={query.error} notice={notice} />
    </>
  );
}

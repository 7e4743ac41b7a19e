import type { Metadata } from "next";
import { GeistSans } from "geist/font/sans";
import { headers } from "next/headers";
import { personLocaleOfRequest } from "@/lib/i18n/choose-person-locale";
import { textDirection } from "@/lib/i18n/locales";
import "./globals.css";

export const metadata: Metadata = {
  title: "Identity Verification",
  description: "Self-hostable identity verification: hosted sessions, OpenID Connect and workforce roster.",
};

/** `lang` and `dir` are the page's language: the person's on the hosted pages (proxy.ts), English elsewhere. */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const locale = personLocaleOfRequest(await headers());
  return (
    <html lang={locale} dir={textDirection(locale)} className={GeistSans.className}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}

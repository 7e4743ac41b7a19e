import type { Metadata, Viewport } from "next";
import { createTranslator } from "next-intl";
import { headers } from "next/headers";
import { PersonTextProvider } from "@/components/verify/person-text-provider";
import { personLocaleOfRequest } from "@/lib/i18n/choose-person-locale";
import { personMessages } from "@/lib/i18n/person-messages";

/**
 * The hosted verification pages (`/verify/<session_id>#token=...`), in the
 * language proxy.ts chose for the request; the page gets only that
 * language's messages. Nothing else is fetched on the server: the page
 * reads the session token from the link's fragment in the browser. Not
 * indexed; no referrer leaves the page.
 */
export async function generateMetadata(): Promise<Metadata> {
  const locale = personLocaleOfRequest(await headers());
  const t = createTranslator({ locale, messages: await personMessages(locale), namespace: "verify.meta" });
  return {
    title: t("title"),
    description: t("description"),
    robots: { index: false, follow: false },
    referrer: "no-referrer",
  };
}

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: "#ffffff",
};

export default async function VerifyLayout({ children }: { children: React.ReactNode }) {
  const locale = personLocaleOfRequest(await headers());
  return (
    <PersonTextProvider locale={locale}>
      <div className="bg-slate-50">{children}</div>
    </PersonTextProvider>
  );
}

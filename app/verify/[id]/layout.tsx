import type { Metadata, Viewport } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getTranslations } from "next-intl/server";

/**
 * The hosted verification pages (`/verify/<session_id>#token=...`), in the
 * language proxy.ts chose for the request (lib/i18n/request.ts gives
 * next-intl that language and its catalogue; the provider hands the client
 * only that language's messages). Nothing else is fetched on the server:
 * the page reads the session token from the link's fragment in the
 * browser. Not indexed; no referrer leaves the page.
 */
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("verify.meta");
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

export default function VerifyLayout({ children }: { children: React.ReactNode }) {
  return (
    <NextIntlClientProvider>
      <div className="bg-slate-50">{children}</div>
    </NextIntlClientProvider>
  );
}

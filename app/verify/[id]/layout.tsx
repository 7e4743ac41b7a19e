import type { Metadata, Viewport } from "next";
import { en } from "@/lib/i18n/en";

/**
 * The hosted verification pages (`/verify/<session_id>#token=...`). Nothing
 * here is fetched on the server: the page reads the session token from the
 * link's fragment in the browser. Not indexed; no referrer leaves the page.
 */
export const metadata: Metadata = {
  title: en.meta.title,
  description: en.meta.description,
  robots: { index: false, follow: false },
  referrer: "no-referrer",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: "#ffffff",
};

export default function VerifyLayout({ children }: { children: React.ReactNode }) {
  return <div className="bg-slate-50">{children}</div>;
}

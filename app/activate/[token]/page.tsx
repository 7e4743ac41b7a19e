import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { notFound } from "next/navigation";
import { GoneStep } from "@/components/oidc/steps";
import { ActivationPage } from "@/components/org/activation-page";
import { ACCOUNT_COOKIE } from "@/lib/account-page/account-cookies";
import { isFramed } from "@/lib/oidc/browser-guard";
import { activationView } from "@/lib/org/activation-view";

/** A member's face-activation link (lib/org/face-activation.ts); a dead link is a friendly 404 (`invalid_activation`). */
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Activate your account", robots: { index: false, follow: false }, referrer: "no-referrer" };

type Props = { params: Promise<{ token: string }> };

export default async function Page({ params }: Props) {
  if (isFramed((await headers()).get("sec-fetch-dest"))) return <GoneStep framed />;
  const view = await activationView((await params).token, (await cookies()).get(ACCOUNT_COOKIE)?.value);
  if (!view) notFound();
  return <ActivationPage view={view} />;
}

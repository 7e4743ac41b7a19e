import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { AccountDetails, AccountSignIn } from "@/components/account/account-page";
import { GoneStep } from "@/components/oidc/steps";
import { ACCOUNT_COOKIE } from "@/lib/account-page/account-cookies";
import { ACCOUNT_STRINGS } from "@/lib/account-page/account-strings";
import { accountView } from "@/lib/account-page/account-view";
import { isFramed } from "@/lib/oidc/browser-guard";

/**
 * The person's account page: what they proved, the apps that received it
 * (revoke), and deleting the account. Signing in goes through this
 * service's own sign-in page (email code or face). Never inside a frame.
 */
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: ACCOUNT_STRINGS.title, robots: { index: false, follow: false }, referrer: "no-referrer" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AccountPage({ searchParams }: Props) {
  if (isFramed((await headers()).get("sec-fetch-dest"))) return <GoneStep framed />;
  const m = (await searchParams).m;
  const message = typeof m === "string" ? (ACCOUNT_STRINGS.messages[m] ?? null) : null;
  const view = await accountView((await cookies()).get(ACCOUNT_COOKIE)?.value);
  return view.signedIn ? <AccountDetails view={view} message={message} /> : <AccountSignIn message={message} />;
}

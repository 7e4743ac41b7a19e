import type { Metadata } from "next";
import { headers } from "next/headers";
import { cache } from "react";
import { CodeStep, ConsentStep, EmailStep, FaceStep, GoneStep, messageFor } from "@/components/oidc/steps";
import { readInteractionCookie } from "@/lib/oidc/interaction-cookie";
import { isFramed } from "@/lib/oidc/browser-guard";
import { interactionView } from "@/lib/oidc/interaction";
import { STRINGS } from "@/lib/accounts/sign-in-strings";

/**
 * The sign-in page of an authorization request: email, then the one-time
 * code or a face scan, then consent (login only). Shown only to the browser that started
 * the request (its cookie); never inside a frame.
 */
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const load = cache(async (id: string) => {
  if (isFramed((await headers()).get("sec-fetch-dest"))) return { framed: true as const };
  return { framed: false as const, view: await interactionView(id, readInteractionCookie((await headers()).get("cookie"))) };
});

const TITLES = { email: STRINGS.email.title, code: STRINGS.code.title, face: STRINGS.face.title, consent: STRINGS.consent.title, gone: STRINGS.interactionGone.title };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const loaded = await load((await params).id);
  const step = loaded.framed ? "gone" : loaded.view.step;
  return { title: TITLES[step], robots: { index: false, follow: false }, referrer: "no-referrer" };
}

export default async function InteractionPage({ params, searchParams }: Props) {
  const loaded = await load((await params).id);
  if (loaded.framed) return <GoneStep framed />;
  const { view } = loaded;
  if (view.step === "gone") return <GoneStep />;
  const m = (await searchParams).m;
  const message = messageFor(typeof m === "string" ? m : undefined, view);
  if (view.step === "email") return <EmailStep view={view} message={message} />;
  if (view.step === "code") return <CodeStep view={view} message={message} />;
  if (view.step === "face") return <FaceStep view={view} message={message} />;
  return <ConsentStep view={view} message={message} />;
}

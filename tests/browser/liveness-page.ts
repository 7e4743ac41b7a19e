import type { Page } from "playwright-core";
import { expect } from "vitest";
import { verifyMessages, verifyText } from "../support/verify-text";
import { personLog } from "./camera-person";

/** Helpers for the hosted liveness step in the browser tests (hosted-pages, liveness-actions). */
export type IssuedChallenge = { actions: string[]; attempts_left: number; frames: { recommended: number } };

/** The instruction the page shows first for a challenge's `action` (verify.liveness.cues, e.g. "Turn your head to your left"). */
export const cueText = (action: string) => verifyText(`liveness.cues.${action as keyof typeof verifyMessages.liveness.cues}.do`);

/**
 * Presses the liveness step's Start (or Try again), or with `withoutColours` the photosensitive alternative
 * ("I can't look at flashing colours"), and returns the challenge the server issued for it.
 */
export async function startLiveness(page: Page, options: { withoutColours?: boolean } = {}): Promise<IssuedChallenge> {
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v2/antispoof/challenge") && r.request().method() === "POST");
  const button = options.withoutColours ? verifyText("liveness.colourLight.alternative") : /^Start (the camera|again)$|^Try again$/;
  await page.getByRole("button", { name: button }).click();
  const res = await answer;
  expect(res.status()).toBe(201);
  return (await res.json()).data as IssuedChallenge;
}

/** The server's measurements of the last liveness burst (evidence, never in the API), to explain a failure. */
export async function livenessEvidence(sessionId: string) {
  const { db } = await import("@/lib/db/client");
  const row = await (await db()).checkResult.findUnique({ where: { sessionId_type: { sessionId, type: "liveness" } } });
  const m = (row?.evidence as any)?.measurements;
  return m
    ? {
        status: row?.status,
        error: row?.error,
        actions: m.actions,
        yaw_deg: m.yaw_deg,
        pitch_deg: m.pitch_deg,
        mouth_width: m.mouth_width,
        faces: m.faces_per_frame,
        similarity: m.same_person_similarity,
        detected: m.actions_detected,
      }
    : row;
}

/** Waits for the liveness verdict on the page; on a surprise, prints what the person did and what the server measured. */
export async function livenessOutcome(page: Page, sessionId: string, expected: "passed" | "failed" | "review") {
  const passed = page.getByText(verifyText("liveness.passed"));
  const failed = page.getByText(verifyText("liveness.failedHeading"), { exact: true });
  const review = page.getByText(verifyText("liveness.colourLight.review"));
  await passed.or(failed).or(review).first().waitFor({ timeout: 60_000 });
  const outcome = (await passed.isVisible()) ? "passed" : (await review.isVisible()) ? "review" : "failed";
  if (outcome !== expected) {
    console.error("liveness verdict surprise; the person did:", JSON.stringify(await personLog(page)));
    console.error("the server measured:", JSON.stringify(await livenessEvidence(sessionId)));
  }
  expect(outcome).toBe(expected);
}

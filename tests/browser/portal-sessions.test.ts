import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { createSession, createWorkflow, shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { burst } from "../support/kyc";
import { keptImages, reviewResults, seedSession } from "../support/review-sessions";
import { ARTIFACTS, chromiumMissing, launchChromium, expectPortalAccessible, signedInContext } from "./browser";

/**
 * Sessions and the review queue in Debian's Chromium, as a developer uses
 * them: filter the sessions list (the filter lands in the address and the
 * server renders it), open a session, open the review queue, see the kept
 * images beside the scores and the engine's reason, approve one session (it
 * leaves the queue; its page shows the audit entry with the developer's
 * email) and decline another. The developer signs up over HTTP and the
 * sessions are made over the API and the domain layer; every view is
 * screenshotted at phone and desktop size and axe-checked.
 */
useServerDatabase();

const t = portalText;
let browser: Browser;
let page: Page;
let dev: PortalDeveloper;
let appId = "";
let tenant: { apiKey: string };
let workflow = "";
const ids: Record<"open" | "approved" | "approvable" | "faceReview", string> = { open: "", approved: "", approvable: "", faceReview: "" };

// Each view is axe-checked at two sizes: several seconds apiece on a busy machine.
const suiteName = chromiumMissing ? `portal sessions (SKIPPED: ${chromiumMissing})` : "portal sessions and review queue in Chromium";

const h1 = (name: string | RegExp) => page.getByRole("heading", { level: 1, name });
const sessionRows = () => page.getByRole("region", { name: t.common.table(t.sessions.listHeading) }).locator("tbody tr");

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  beforeAll(async () => {
    fs.mkdirSync(path.join(ARTIFACTS, "screenshots", "portal"), { recursive: true });
    [dev, browser] = await Promise.all([signUpDeveloper(), launchChromium("none")]);
    const app = await dev.call("POST", "/api/portal/apps", { json: { name: "Review shop", environment: "test" } });
    appId = app.body.data.app_id;
    tenant = { apiKey: app.body.data.api_key as string };
    let images: Awaited<ReturnType<typeof keptImages>>;
    [workflow, images] = await Promise.all([createWorkflow(tenant, ["id_verification", "liveness", "face_match", "age"]), keptImages()]);
    ids.open = (await createSession(tenant, { workflow_id: workflow, vendor_data: "order-1" })).session_id;
    ids.approved = await seedSession(tenant, workflow, {
      vendorData: "order-2",
      results: { id_verification: "passed", liveness: "passed", face_match: "passed", age: "passed" },
    });
    ids.approvable = await seedSession(tenant, workflow, { vendorData: "review-a", results: reviewResults(true), images });
    ids.faceReview = await seedSession(tenant, workflow, { vendorData: "review-b", results: reviewResults(false), images });

    const context = await signedInContext(browser, dev, shared().url);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("filters the sessions list (shareable address, server-rendered) and opens a session", async () => {
    await page.goto(`/dashboard/apps/${appId}`);
    await page.getByRole("link", { name: t.appNav.sessions }).click();
    await h1(t.sessions.title).waitFor();
    await expect.poll(() => sessionRows().count()).toBe(4);
    // Newest first.
    expect(await sessionRows().first().getByRole("cell").nth(2).textContent()).toBe("review-b");
    await expectPortalAccessible(page, "sessions-list");

    await page.getByLabel(t.sessions.status).selectOption("IN_REVIEW");
    await page.getByRole("button", { name: t.sessions.apply }).click();
    await page.waitForURL(/status=IN_REVIEW/);
    await expect.poll(() => sessionRows().count()).toBe(2);
    await page.getByLabel(t.sessions.vendorData).fill("review-a");
    await page.getByRole("button", { name: t.sessions.apply }).click();
    await page.waitForURL(/vendor_data=review-a/);
    await expect.poll(() => sessionRows().count()).toBe(1);
    // The address alone gives the same list, rendered by the server.
    const shareable = page.url();
    await page.goto(shareable);
    expect(await sessionRows().count()).toBe(1);
    expect(await page.getByLabel(t.sessions.vendorData).inputValue()).toBe("review-a");
    await expectPortalAccessible(page, "sessions-filtered");

    await page.getByRole("link", { name: t.sessions.open(ids.approvable) }).click();
    await h1(t.sessions.open(ids.approvable)).waitFor();
    await page.getByRole("cell", { name: t.sessions.checkNames.face_match }).waitFor();
    await page.getByRole("heading", { name: t.review.panelHeading }).waitFor();
    await page.getByText(t.sessions.auditEmpty).waitFor();
    await expectPortalAccessible(page, "session-in-review");

    await page.goto(`/dashboard/apps/${appId}/sessions`);
    await page.getByRole("link", { name: t.sessions.open(ids.approved) }).click();
    await h1(t.sessions.open(ids.approved)).waitFor();
    expect(await page.getByRole("button", { name: t.review.approve }).count()).toBe(0);
    await expectPortalAccessible(page, "session-approved-by-engine");
  }, 150_000);

  it("reviews in the queue: sees the images and the reason, approves one, declines another after a confirmation (Cancel keeps it)", async () => {
    await page.getByRole("link", { name: t.appNav.reviewQueue }).click();
    await h1(t.review.title).waitFor();
    const cards = page.locator("article");
    await expect.poll(() => cards.count()).toBe(2);
    // Oldest first.
    expect(await cards.first().getByRole("heading", { level: 2 }).textContent()).toBe(t.sessions.open(ids.approvable));
    for (const kind of ["document_front", "document_back", "selfie"]) {
      const img = page.getByRole("img", { name: t.review.imageAlt(t.review.images[kind]!, ids.approvable) });
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    }
    const faceCard = cards.filter({ has: page.getByRole("heading", { name: t.sessions.open(ids.faceReview) }) });
    await faceCard.getByText(t.review.reasonFaceMatch("0.58", "0.61")).waitFor();
    expect(await faceCard.getByRole("button", { name: t.review.approveSession(ids.faceReview) }).isDisabled()).toBe(true);
    // The face match in review can be settled first (the next test does); until then approval waits for it.
    await faceCard.getByText(t.review.approveAfterSettling).waitFor();
    await faceCard.getByRole("heading", { name: t.review.settleCheck.face_match!.heading }).waitFor();
    await expectPortalAccessible(page, "review-queue");

    await page.getByRole("button", { name: t.review.approveSession(ids.approvable) }).click();
    await page.getByText(t.review.decided(ids.approvable, t.sessions.statuses.APPROVED!)).waitFor();
    await expect.poll(() => cards.count()).toBe(1);
    // Declining is final and deletes the images: it asks first, and Cancel leaves the session in the queue.
    await page.getByRole("button", { name: t.review.declineSession(ids.faceReview) }).click();
    const decline = page.getByRole("dialog", { name: t.review.declineConfirm.heading(ids.faceReview) });
    await decline.getByText(t.review.declineConfirm.consequences[1]!).waitFor();
    await expectPortalAccessible(page, "review-decline-confirm");
    await decline.getByRole("button", { name: t.common.cancel }).click();
    await decline.waitFor({ state: "detached" });
    expect(await cards.count()).toBe(1);
    expect(await page.getByText(t.review.decided(ids.faceReview, t.sessions.statuses.DECLINED!)).count()).toBe(0);
    await page.getByRole("button", { name: t.review.declineSession(ids.faceReview) }).click();
    await decline.getByRole("button", { name: t.review.declineConfirm.button }).click();
    await page.getByText(t.review.decided(ids.faceReview, t.sessions.statuses.DECLINED!)).waitFor();
    await page.getByText(t.review.empty).waitFor();
    await expectPortalAccessible(page, "review-queue-empty");

    // The approved session's page: its status, and the audit entry with the developer's email.
    await page.goto(`/dashboard/apps/${appId}/sessions/${ids.approvable}`);
    await h1(t.sessions.open(ids.approvable)).waitFor();
    const audit = page.getByRole("region", { name: t.common.table(t.sessions.auditHeading) });
    await audit.getByRole("cell", { name: dev.email }).waitFor();
    await audit.getByRole("cell", { name: t.sessions.manualDecision(t.sessions.statuses.IN_REVIEW!, t.sessions.statuses.APPROVED!) }).waitFor();
    expect(await page.getByRole("img").count()).toBe(0);
    await expectPortalAccessible(page, "session-approved-audit");

    // The declined one, through the filtered list.
    await page.goto(`/dashboard/apps/${appId}/sessions?status=DECLINED`);
    await expect.poll(() => sessionRows().count()).toBe(1);
    await page.getByRole("link", { name: t.sessions.open(ids.faceReview) }).click();
    await page.getByRole("region", { name: t.common.table(t.sessions.auditHeading) }).getByRole("cell", { name: dev.email }).waitFor();
  }, 150_000);

  it("a licence in review shows the reviewer the lookup: both names, what was typed, the registry's words", async () => {
    const app = await dev.call("POST", "/api/portal/apps", { json: { name: "Clinic", environment: "production" } });
    const tenant = { apiKey: app.body.data.api_key as string };
    const workflow = await createWorkflow(tenant, ["id_verification", "liveness", "face_match", "credential"]);
    const id = await seedSession(tenant, workflow, {
      results: { id_verification: "passed", liveness: "passed", face_match: "passed", credential: "review" },
      licenceRecord: {
        licence: {
          license_number: "C111222",
          license_type: "Physician (MD/DO)",
          holder: { first: "JORDON", last: "SAMPLE", full: null },
          status: "active",
          registry_status: "NPI active; Internal Medicine",
          expires_on: null,
          state: "CA",
          issuing_authority: "California licensing board (listed in NPPES)",
        },
        lookup: { provider_code: "nppes", credential_code: "nppes-ca-physician", inputs: { npi_number: "1234567919", license_number: "C111222" } },
        verified_holder: { first: "JORDAN", last: "SAMPLE", full: "JORDAN SAMPLE" },
        looked_up_at: new Date().toISOString(),
      },
    });
    await page.goto(`/dashboard/apps/${app.body.data.app_id}/review`);
    const card = page.locator("article").filter({ has: page.getByRole("heading", { name: t.sessions.open(id) }) });
    await card.getByRole("heading", { name: t.review.licence.heading }).waitFor();
    for (const [label, value] of [
      [t.review.licence.verifiedName, "JORDAN SAMPLE"],
      [t.review.licence.registryName, "JORDON SAMPLE"],
      [t.review.licence.input("npi_number"), "1234567919"],
      [t.review.licence.input("license_number"), "C111222"],
      [t.review.licence.registryStatus, "NPI active; Internal Medicine"],
    ]) {
      expect(await card.locator("dt", { hasText: label! }).locator("xpath=following-sibling::dd[1]").textContent()).toBe(value);
    }
    await expectPortalAccessible(page, "review-queue-licence");
  }, 60_000);

  it("a liveness check in review: the reviewer sees the burst's frames, confirms the live person, then approves", async () => {
    const frames = burst("a-left-right");
    const id = await seedSession(tenant, workflow, {
      vendorData: "liveness-review",
      results: { id_verification: "passed", liveness: "review", face_match: "passed", age: "passed" },
      images: await keptImages(),
      livenessFrames: frames,
    });
    await page.goto(`/dashboard/apps/${appId}/review`);
    const card = page.locator("article").filter({ has: page.getByRole("heading", { name: t.sessions.open(id) }) });
    await card.getByRole("heading", { name: t.review.settleCheck.liveness!.heading }).waitFor();
    for (let n = 1; n <= frames.length; n++) {
      const img = card.getByRole("img", { name: t.review.imageAlt(t.review.settle.frame(n, frames.length), id) });
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    }
    expect(await card.getByRole("button", { name: t.review.approveSession(id) }).isDisabled()).toBe(true);
    await card.getByText(t.review.approveAfterSettling).waitFor();
    await expectPortalAccessible(page, "review-queue-liveness");

    // Without a reason: the field says why.
    await card.getByRole("button", { name: t.review.settleCheck.liveness!.confirmSession(id) }).click();
    await card.getByText("reason must be at least 3 characters").waitFor();
    await card.getByLabel(t.review.settle.reason).fill("Turns left then right, same real face throughout");
    await card.getByRole("button", { name: t.review.settleCheck.liveness!.confirmSession(id) }).click();
    await page.getByText(t.review.settle.settled(id, t.sessions.checkNames.liveness!, t.sessions.checkStatuses.passed!)).waitFor();
    // Settled: the frames and buttons go, and approval is open.
    await expect.poll(() => card.getByRole("heading", { name: t.review.settleCheck.liveness!.heading }).count()).toBe(0);
    await expect.poll(() => card.getByRole("button", { name: t.review.approveSession(id) }).isEnabled()).toBe(true);
    await card.getByRole("button", { name: t.review.approveSession(id) }).click();
    await page.getByText(t.review.decided(id, t.sessions.statuses.APPROVED!)).waitFor();

    await page.goto(`/dashboard/apps/${appId}/sessions/${id}`);
    const audit = page.getByRole("region", { name: t.common.table(t.sessions.auditHeading) });
    await audit
      .getByRole("cell", { name: t.sessions.manualCheckReview(t.sessions.checkNames.liveness!, t.sessions.checkStatuses.passed!, "Turns left then right, same real face throughout") })
      .waitFor();
    await audit.getByRole("cell", { name: t.sessions.manualDecision(t.sessions.statuses.IN_REVIEW!, t.sessions.statuses.APPROVED!) }).waitFor();
  }, 90_000);

  it("a face match in review: the document and the best liveness frame side by side, each opens full size; 'Same person', then approve", async () => {
    const id = await seedSession(tenant, workflow, { vendorData: "face-review", results: reviewResults(false), images: await keptImages() });
    await page.goto(`/dashboard/apps/${appId}/review`);
    const card = page.locator("article").filter({ has: page.getByRole("heading", { name: t.sessions.open(id) }) });
    const fm = t.review.settleCheck.face_match!;
    const section = card.getByRole("region", { name: fm.heading });
    await section.waitFor();
    const front = section.getByRole("img", { name: t.review.imageAlt(t.review.images.document_front!, id) });
    const selfie = section.getByRole("img", { name: t.review.imageAlt(t.review.images.selfie!, id) });
    for (const img of [front, selfie]) await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    // Side by side, each at least 320 px wide (the kept images above too).
    const [a, b] = [(await front.boundingBox())!, (await selfie.boundingBox())!];
    expect(Math.abs(a.y - b.y)).toBeLessThan(2);
    expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
    expect(Math.min(a.width, b.width)).toBeGreaterThanOrEqual(320);
    for (const kind of ["document_front", "document_back", "selfie"]) {
      const kept = card.getByRole("img", { name: t.review.imageAlt(t.review.images[kind]!, id) }).first();
      expect((await kept.boundingBox())!.width).toBeGreaterThanOrEqual(320);
    }
    await expectPortalAccessible(page, "review-queue-face-match");

    // A thumbnail opens full size in a new tab, from the keyboard: the image route, the image at its natural size.
    const link = section.getByRole("link", { name: t.review.openFull(t.review.images.selfie!) });
    await link.focus();
    const [full] = await Promise.all([page.context().waitForEvent("page"), page.keyboard.press("Enter")]);
    await full.waitForLoadState();
    expect(full.url()).toBe(`${shared().url}/api/portal/apps/${appId}/sessions/${id}/images/selfie`);
    const natural = await full.locator("img").evaluate((el: HTMLImageElement) => ({ w: el.naturalWidth, h: el.naturalHeight }));
    expect(natural).toEqual({ w: 64, h: 40 });
    await full.close();

    await section.getByLabel(t.review.settle.reason).fill("Same face shape, eyes and ears as the licence portrait");
    await section.getByRole("button", { name: fm.confirmSession(id), exact: true }).click();
    await page.getByText(t.review.settle.settled(id, t.sessions.checkNames.face_match!, t.sessions.checkStatuses.passed!)).waitFor();
    await expect.poll(() => card.getByRole("region", { name: fm.heading }).count()).toBe(0);
    await expect.poll(() => card.getByRole("button", { name: t.review.approveSession(id) }).isEnabled()).toBe(true);
    await card.getByRole("button", { name: t.review.approveSession(id) }).click();
    await page.getByText(t.review.decided(id, t.sessions.statuses.APPROVED!)).waitFor();
  }, 90_000);
});

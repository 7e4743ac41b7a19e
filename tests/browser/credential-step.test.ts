import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyText } from "../support/verify-text";
import { api, createSession, createTenant, createWorkflow, keyHeader, shared, type Tenant } from "../support/api";
import { cli } from "../support/cli";
import { useServerDatabase } from "../support/domain";
import { fixture, imageForm } from "../support/images";
import { axeFindings, captureView, chromiumMissing, launchChromium, PHONE } from "./browser";

/**
 * The hosted page's licence step (`credential`, README "Professional
 * licences") in Debian's Chromium against the shared production server,
 * for a production app. A fictitious state board is imported with the admin
 * CLI (provider code `sample-browser`, California); the document step is
 * passed over HTTP (the page then needs no camera), and the person works
 * through the licence step in the browser: someone else's licence, an
 * expired one, then their own: APPROVED with the credential check passed.
 * Every view is screenshotted at phone and desktop sizes
 * (test-artifacts/screenshots/credential/) and checked with axe-core.
 */
useServerDatabase();

const PROVIDER = "sample-browser";
const BOARD = "Sample State Board of Medicine (fictitious)";
const LICENCE_TYPE = "Physician and Surgeon";
const RETURN_URL = "https://shop.example/return?order=16";

let t: Tenant;
let workflow: string;
let browser: Browser;

const suiteName = chromiumMissing ? `hosted licence step (SKIPPED: ${chromiumMissing})` : "hosted licence step in Chromium";
if (chromiumMissing) console.warn(`[tests/browser] skipped: ${chromiumMissing}`);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * The document step over HTTP: Jordan Sample's driving licence, or a licence
 * whose back's birth year is one digit off its front (`review`: not verified,
 * yet not a failure that would decide the session).
 */
const DOCUMENTS = {
  "licence-a": ["licence-a-front.jpg", "licence-a-back.jpg"],
  "licence-uncertain": ["licence-b-front.jpg", "licence-b-back-altered-dob-one-digit.jpg"],
} as const;
async function postDocument(token: string, which: keyof typeof DOCUMENTS) {
  const [front, back] = DOCUMENTS[which];
  const res = await api("POST", "/api/v2/document", {
    headers: bearer(token),
    form: imageForm({ front: fixture("documents", front), back: fixture("documents", back) }, { document_type: "driving_licence" }),
  });
  expect(res.status, res.text).toBeLessThan(300);
  return (res.body.data.checks as Array<{ type: string; status: string }>).find((c) => c.type === "id_verification")!;
}

async function decision(sessionId: string) {
  const res = await api("GET", `/api/v2/session/${sessionId}/decision`, { headers: keyHeader(t) });
  expect(res.status).toBe(200);
  return res.body.data as { status: string; checks: Array<{ type: string; status: string; data: any; error: any }> };
}

/** A phone without any camera; the return address is served locally (the machine reaches no shop). */
async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: "en-GB" });
  await context.route("https://shop.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><html lang=en><title>Shop</title><h1>Back at the shop</h1></html>" }),
  );
  return context;
}

async function expectAccessible(page: Page, name: string) {
  const serious = await captureView(page, `credential/${name}`);
  expect(serious, `${name}: serious/critical axe violations`).toEqual([]);
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name });
const stateSelect = (page: Page) => page.getByLabel(verifyText("credential.stateLabel"), { exact: true });
const licenceSelect = (page: Page) => page.getByLabel(verifyText("credential.licenceLabel"), { exact: true });
const licenceNumber = (page: Page) => page.getByLabel(verifyText("credential.fields.license_number.label"), { exact: true });
const checkButton = (page: Page) => page.getByRole("button", { name: verifyText("credential.submit") });

/** The answer of the next licence lookup the page sends. */
function nextLookup(page: Page) {
  return page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v2/credential" && r.request().method() === "POST");
}

/** From the start page on screen (the document step behind) to the licence step with this board's credential chosen. */
async function openLicenceStep(page: Page, credentialCode: string) {
  await heading(page, "Test app would like to verify your identity").waitFor();
  await page.getByRole("button", { name: verifyText("start.resume") }).click();
  await heading(page, verifyText("credential.heading")).waitFor();
  await stateSelect(page).waitFor();
  await stateSelect(page).selectOption("CA");
  await licenceSelect(page).locator(`option[value="${credentialCode}"]`).waitFor({ state: "attached" });
  await licenceSelect(page).selectOption(credentialCode);
  await licenceNumber(page).waitFor();
}

describe.skipIf(Boolean(chromiumMissing))(suiteName, { timeout: 240_000 }, () => {
  beforeAll(async () => {
    const imported = await cli(
      ["registry:import", "--file", "registry/samples/sample-medical-board.csv", "--provider", PROVIDER, "--name", BOARD, "--state", "CA"],
      shared().env,
    );
    expect(imported).toMatchObject({ provider_code: PROVIDER, state_code: "CA" });
    browser = await launchChromium("none");
    t = await createTenant(shared().env, "production");
    workflow = await createWorkflow(t, ["id_verification", "credential"], { settings: { credential: { license_types: [LICENCE_TYPE] } } });
  });

  afterAll(async () => {
    await browser?.close();
    const counts = new Map<string, number>();
    for (const f of axeFindings) counts.set(`${f.impact} ${f.id}: ${f.help}`, (counts.get(`${f.impact} ${f.id}: ${f.help}`) ?? 0) + 1);
    console.log(`axe-core findings over the licence step's views (any impact): ${counts.size ? [...counts].map(([k, n]) => `${k} (${n} views)`).join("; ") : "none"}`);
  });

  /** This board's Physician and Surgeon credential, as the page's discovery lists it in California. */
  async function boardCredential(token: string) {
    const res = await api("GET", "/api/v2/flow/credential/states/CA/providers", { headers: bearer(token) });
    expect(res.status, res.text).toBe(200);
    const providers = res.body.data.providers as Array<{ provider_code: string; credential_code: string; credential_name: string; required_fields: string[] }>;
    for (const p of providers) expect(p.credential_name).toBe(LICENCE_TYPE);
    const ours = providers.filter((p) => p.provider_code === PROVIDER);
    expect(ours).toHaveLength(1);
    expect(ours[0]!.required_fields).toEqual(["license_number"]);
    return ours[0]!.credential_code;
  }

  it("Jordan Sample: someone else's licence, an expired one, then his own -> APPROVED with the licence verified", async () => {
    const s = await createSession(t, { workflow_id: workflow, redirect_url: RETURN_URL });
    expect((await postDocument(s.session_token, "licence-a")).status).toBe("passed");
    const credentialCode = await boardCredential(s.session_token);
    const states = (await api("GET", "/api/v2/flow/credential/states", { headers: bearer(s.session_token) })).body.data.states as Array<{
      state_name: string;
      state_code: string;
    }>;

    const context = await newContext();
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await heading(page, "Test app would like to verify your identity").waitFor();
      await page.getByText(verifyText("start.checks.credential")).waitFor();
      await expectAccessible(page, "01-start");
      await page.getByRole("button", { name: verifyText("start.resume") }).click();

      // The licence step: the states offered are those with a Physician and Surgeon licence (not NPPES's every state).
      await heading(page, verifyText("credential.heading")).waitFor();
      await page.getByRole("navigation", { name: verifyText("progress.label") }).getByText("Step 2 of 2").waitFor();
      await page.getByText(verifyText("credential.intro", { app: "Test app" })).waitFor();
      await stateSelect(page).waitFor();
      const offered = await stateSelect(page).locator("option:not([disabled])").evaluateAll((os) => os.map((o) => ({ value: (o as HTMLOptionElement).value, text: o.textContent })));
      expect(offered).toEqual(states.map((x) => ({ value: x.state_code, text: x.state_name })));
      expect(offered).toContainEqual({ value: "CA", text: "California" });
      expect(offered.length).toBeLessThan(10);
      for (const state of states) {
        const res = await api("GET", `/api/v2/flow/credential/states/${state.state_code}/providers`, { headers: bearer(s.session_token) });
        expect(res.body.data.providers.every((p: { credential_name: string }) => p.credential_name === LICENCE_TYPE)).toBe(true);
      }
      if (states.length === 1) {
        // The only state with an accepted licence is chosen already.
        await expect.poll(() => stateSelect(page).inputValue()).toBe("CA");
      } else {
        expect(await stateSelect(page).inputValue()).toBe("");
        await expectAccessible(page, "02-choose-state");
        await stateSelect(page).selectOption("CA");
      }
      const option = licenceSelect(page).locator(`option[value="${credentialCode}"]`);
      await option.waitFor({ state: "attached" });
      expect(await option.textContent()).toBe(verifyText("credential.licenceOption", { credential: LICENCE_TYPE, provider: BOARD }));
      await licenceSelect(page).selectOption(credentialCode);
      await expect.poll(() => licenceNumber(page).count()).toBe(1);
      // One input (this board asks for the licence number only), not a number-only keyboard.
      expect(await page.getByLabel(verifyText("credential.fields.npi_number.label"), { exact: true }).count()).toBe(0);
      expect(await licenceNumber(page).getAttribute("inputmode")).toBeNull();
      await expectAccessible(page, "03-licence-chosen");

      // 1. PAT OTHERPERSON's licence: found, but not his.
      await licenceNumber(page).fill("SMB-10004");
      let lookup = nextLookup(page);
      await checkButton(page).click();
      let answer = await (await lookup).json();
      expect(answer.data).toMatchObject({ checks: [{ type: "credential", status: "failed", error: { code: "license_holder_mismatch" } }], attempts_left: 4 });
      await page.getByText(verifyText("credential.failures.license_holder_mismatch")).waitFor();
      await page.getByText(verifyText("common.attemptsLeft", { n: 4 })).waitFor();
      // The result took the focus to the heading (announced; the next Tab starts at the top).
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
      await expectAccessible(page, "04-someone-elses-licence");

      // 2. Try again: his licence that expired in January 2025, typed loosely; sent with Enter.
      await page.getByRole("button", { name: verifyText("common.tryAgain") }).click();
      await heading(page, verifyText("credential.heading")).waitFor();
      expect(await licenceSelect(page).inputValue()).toBe(credentialCode);
      await licenceNumber(page).fill("smb 10002");
      lookup = nextLookup(page);
      await licenceNumber(page).press("Enter");
      answer = await (await lookup).json();
      expect(answer.data.checks[0]).toMatchObject({ status: "failed", error: { code: "license_expired" }, data: { match: true, license: { status: "expired" } } });
      await page.getByText(verifyText("credential.failures.license_expired")).waitFor();
      await page.getByText(verifyText("common.attemptsLeft", { n: 3 })).waitFor();
      await expectAccessible(page, "05-expired-licence");

      // 3. His active licence.
      await page.getByRole("button", { name: verifyText("common.tryAgain") }).click();
      await licenceNumber(page).fill("SMB-10001");
      lookup = nextLookup(page);
      await checkButton(page).click();
      answer = await (await lookup).json();
      expect(answer.data.checks[0]).toMatchObject({ status: "passed", data: { match: true, license: { status: "active" } }, error: null });
      await page.getByText(verifyText("credential.passed", { type: LICENCE_TYPE, state: "California", until: "30 June 2030" })).waitFor();
      await expectAccessible(page, "06-licence-verified");
      await page.getByRole("button", { name: verifyText("common.continue"), exact: true }).click();

      // Finish: the final page, then back to the app.
      await heading(page, verifyText("finish.heading")).waitFor();
      await page.waitForURL((url) => url.hostname === "shop.example", { timeout: 20_000 });
      expect(new URL(page.url()).searchParams.get("status")).toBe("approved");

      const d = await decision(s.session_id);
      expect(d.status).toBe("APPROVED");
      const credential = d.checks.find((c) => c.type === "credential");
      expect(credential).toMatchObject({ status: "passed", data: { match: true, license: { status: "active" } } });
      expect(d.checks.find((c) => c.type === "id_verification")?.status).toBe("passed");
    } finally {
      await context.close();
    }
  });

  it("before the document is verified: 400 kyc_required, explained on the page; an empty licence number is shown next to its input", async () => {
    const s = await createSession(t, { workflow_id: workflow, redirect_url: RETURN_URL });
    const credentialCode = await boardCredential(s.session_token);

    // Over HTTP, no document yet.
    const early = await api("POST", "/api/v2/credential", {
      headers: bearer(s.session_token),
      json: { credential_code: credentialCode, fields: { license_number: "SMB-10001" } },
    });
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ success: false, error: { code: "kyc_required" } });

    // A document in review is not verified: the page explains why the licence cannot be checked.
    expect((await postDocument(s.session_token, "licence-uncertain")).status).toBe("review");
    const context = await newContext();
    const page = await context.newPage();
    try {
      await page.goto(s.url);
      await openLicenceStep(page, credentialCode);
      await licenceNumber(page).fill("SMB-10001");
      let lookup = nextLookup(page);
      await checkButton(page).click();
      expect((await lookup).status()).toBe(400);
      await page.getByText(verifyText("credential.kycRequired.title")).waitFor();
      await page.getByText(verifyText("credential.kycRequired.body")).waitFor();
      expect(await checkButton(page).count()).toBe(0);
      await expectAccessible(page, "07-document-not-verified");

      // With the document verified (over HTTP) and the page opened again: an empty licence number.
      expect((await postDocument(s.session_token, "licence-a")).status).toBe("passed");
      // Reloaded: the token stays in the tab (sessionStorage), the document step is now behind.
      await page.reload();
      await openLicenceStep(page, credentialCode);
      lookup = nextLookup(page);
      await checkButton(page).click();
      const refused = await lookup;
      expect(refused.status()).toBe(400);
      const body = await refused.json();
      expect(body.error.code).toBe("invalid_request");
      expect(Object.keys(body.data.errors)).toEqual(["fields.license_number"]);

      const input = licenceNumber(page);
      await expect.poll(() => input.getAttribute("aria-invalid")).toBe("true");
      const describedBy = (await input.getAttribute("aria-describedby"))!.split(" ");
      const errorText = await page.evaluate((ids) => ids.map((id) => document.getElementById(id)?.textContent).join(" "), describedBy);
      expect(errorText).toContain(verifyText("credential.fieldErrors.empty.license_number"));
      // The input with the error has the focus, and the refused lookup used no try.
      expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.getByText(verifyText("credential.fixFields")).waitFor();
      await expectAccessible(page, "08-empty-licence-number");
      const flow = await api("GET", "/api/v2/flow", { headers: bearer(s.session_token) });
      expect(flow.body.data.steps.find((x: { type: string }) => x.type === "credential")).toMatchObject({ status: "pending", attempts: 0 });
    } finally {
      await context.close();
    }
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { verifyText } from "../support/verify-text";
import { createSession, createWorkflow, shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { createPortalApp, signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { chromiumMissing, expectPortalAccessible, launchChromium, signedInContext } from "./browser";

/**
 * Clickjacking in a real browser (Debian's Chromium): a page of another
 * site, served here by a tiny local server on a port of its own, frames the
 * portal's sign-in page and a hosted verification page. Chromium must show
 * neither unless the hosted page's app lists that site's origin in the
 * portal; then it shows the hosted page (and still not the sign-in page).
 * The headers themselves are tests/integration/framing.test.ts's.
 */
useServerDatabase();

const APP_NAME = "Framed shop";
const t = portalText.appSettings;
const suiteName = chromiumMissing ? `framing (SKIPPED: ${chromiumMissing})` : "framing in Chromium";
if (chromiumMissing) console.warn(`[tests/browser] skipped: ${chromiumMissing}`);

let browser: Browser;
let embedder: http.Server;
let embedderPort: number;
let dev: PortalDeveloper;
let appId: string;
let apiKey: string;
let workflowId: string;

/** Another site: `/?src=<url>` is a page with that URL in an iframe (camera and location allowed, as the README says). */
function startEmbedder(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const src = new URL(req.url ?? "/", "http://embedder").searchParams.get("src") ?? "about:blank";
    const escaped = src.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><title>Shop checkout</title><h1>Shop checkout</h1>` +
        `<iframe title="Verification" src="${escaped}" allow="camera; geolocation" width="400" height="700" onload="window.frameLoaded = true"></iframe></html>`,
    );
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Opens the embedding page of `embedderOrigin` framing `src`; returns the page and the iframe's frame once it has loaded (or failed to). */
async function frame(embedderOrigin: string, src: string): Promise<{ page: Page; child: Frame }> {
  const context = await browser.newContext({ locale: "en-GB" });
  const page = await context.newPage();
  await page.goto(`${embedderOrigin}/?src=${encodeURIComponent(src)}`);
  await page.waitForFunction(() => (window as unknown as { frameLoaded?: boolean }).frameLoaded === true);
  const child = page.mainFrame().childFrames()[0];
  expect(child).toBeDefined();
  return { page, child: child! };
}

/** Chromium refused to show the framed page: the frame holds its error page, never the page's content. */
async function expectBlocked(child: Frame, forbiddenText: string) {
  expect(child.url()).not.toContain(shared().url);
  const shown = await child.evaluate(() => document.body?.innerText ?? "").catch(() => "");
  expect(shown).not.toContain(forbiddenText);
}

async function newHostedPage() {
  const session = await createSession({ apiKey }, { workflow_id: workflowId });
  return `${shared().url}/verify/${session.session_id}#token=${session.session_token}`;
}

/** The developer lists `origin` on the app's settings page, after a refused entry is explained next to the field. */
async function addFrameOriginInPortal(origin: string) {
  const context = await signedInContext(browser, dev, shared().url);
  const page = await context.newPage();
  await page.goto(`/dashboard/apps/${appId}`);
  const field = page.getByLabel(t.framesNew);
  await field.fill(`${origin}/checkout`);
  await page.getByRole("button", { name: t.framesAdd }).click();
  await page.getByText("Must be an origin only (scheme://host[:port]), without a path, query or fragment").waitFor();
  expect(await field.getAttribute("aria-invalid")).toBe("true");
  await field.fill(origin);
  await page.getByRole("button", { name: t.framesAdd }).click();
  await page.getByRole("button", { name: t.framesRemove(origin) }).waitFor();
  await expectPortalAccessible(page, "app-frame-origins");
  await context.close();
}

describe.skipIf(Boolean(chromiumMissing))(suiteName, { timeout: 120_000 }, () => {
  beforeAll(async () => {
    browser = await launchChromium("none");
    embedder = await startEmbedder();
    embedderPort = (embedder.address() as AddressInfo).port;
    dev = await signUpDeveloper();
    ({ appId, apiKey } = await createPortalApp(dev, APP_NAME, "test"));
    workflowId = await createWorkflow({ apiKey }, ["location"]);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => embedder?.close(resolve));
  });

  it("another site cannot frame the portal's sign-in page", async () => {
    const { page, child } = await frame(`http://127.0.0.1:${embedderPort}`, `${shared().url}/sign-in`);
    await expectBlocked(child, portalText.signIn.heading);
    await page.context().close();
  });

  it("nobody can frame the hosted page of an app that lists no origin", async () => {
    const { page, child } = await frame(`http://127.0.0.1:${embedderPort}`, await newHostedPage());
    await expectBlocked(child, verifyText("start.heading", { app: APP_NAME }));
    await page.context().close();
  });

  it("an origin listed in the portal frames the hosted page (which may use the camera there); an unlisted one and the sign-in page stay blocked", async () => {
    await addFrameOriginInPortal(`http://127.0.0.1:${embedderPort}`);
    const hostedPage = await newHostedPage();

    const listed = await frame(`http://127.0.0.1:${embedderPort}`, hostedPage);
    await listed.child.getByRole("heading", { level: 1, name: verifyText("start.heading", { app: APP_NAME }) }).waitFor();
    expect(await listed.child.evaluate(() => (document as unknown as { featurePolicy: { allowsFeature(f: string): boolean } }).featurePolicy.allowsFeature("camera"))).toBe(true);
    await listed.page.context().close();

    // Same server, another origin (localhost is not 127.0.0.1).
    const unlisted = await frame(`http://localhost:${embedderPort}`, hostedPage);
    await expectBlocked(unlisted.child, verifyText("start.heading", { app: APP_NAME }));
    await unlisted.page.context().close();

    const signIn = await frame(`http://127.0.0.1:${embedderPort}`, `${shared().url}/sign-in`);
    await expectBlocked(signIn.child, portalText.signIn.heading);
    await signIn.page.context().close();
  });
});

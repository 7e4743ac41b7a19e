import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Debian's Chromium driven by playwright-core (never `npx playwright
 * install`: the machines reach npm and Debian only). CHROMIUM_PATH overrides
 * the executable; without one the browser tests are skipped with this reason.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const chromiumMissing: string | null = fs.existsSync(CHROMIUM_PATH)
  ? null
  : `no Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`;

const BASE_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Timers of a page that is not focused are not slowed down: the liveness schedule counts milliseconds.
  "--disable-background-timer-throttling",
  "--disable-renderer-backgrounding",
  "--disable-backgrounding-occluded-windows",
];

/**
 * `camera`: a .y4m file Chromium plays as its (only) camera; `"none"`: a
 * machine without any camera. Permissions are per browser context
 * (`permissions: ["camera", "geolocation"]`); one not granted is refused, as
 * when a person blocks it (so no --use-fake-ui-for-media-stream, which would
 * grant the camera to every page).
 */
export function launchChromium(camera: string | "none"): Promise<Browser> {
  const args = camera === "none" ? BASE_ARGS : [...BASE_ARGS, "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${camera}`];
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** The WCAG 2.1 A and AA rules: every page must pass these (serious and critical findings fail a test). */
export const WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe-core for `page`, the one way tests run it. AxeBuilder's default
 * analysis opens a blank page for every run (axe.runPartial in each frame,
 * axe.finishRun in the new page), which was about half the Chromium CPU
 * of the browser tests; legacy mode runs axe.run in the page itself and
 * covers its same-origin frames. Our pages embed no cross-origin frame,
 * and a page that does fails here rather than being checked in part.
 */
export function axeOn(page: Page): AxeBuilder {
  const origin = new URL(page.url()).origin;
  const foreign = page.frames().filter((f) => f.url() !== "about:blank" && new URL(f.url()).origin !== origin);
  if (foreign.length > 0) throw new Error(`axe in legacy mode would skip the cross-origin frames ${foreign.map((f) => f.url()).join(", ")}`);
  return new AxeBuilder({ page }).setLegacyMode(true);
}

/** The serious and critical WCAG 2.1 AA violations on `page`, as `id` strings (`view: id (nodes)` when a view is named). */
export async function seriousViolations(page: Page, view?: string): Promise<string[]> {
  const result = await axeOn(page).withTags(WCAG_21_AA).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => (view ? `${view}: ${v.id} (${v.nodes.length})` : v.id));
}

export const ARTIFACTS = path.join(process.cwd(), "test-artifacts");
const SCREENSHOTS = path.join(ARTIFACTS, "screenshots");

export type AxeFinding = { view: string; id: string; impact: string | null | undefined; help: string; nodes: number };
/** Every axe finding of the run (any impact), for the summary printed at the end. */
export const axeFindings: AxeFinding[] = [];

/**
 * Screenshots of the current view at phone and desktop sizes
 * (test-artifacts/screenshots/<name>-phone.png, -desktop.png) and an axe-core
 * check (WCAG 2.1 A/AA rules) at each size. Returns the serious and
 * critical violations; the caller asserts there are none.
 */
export async function captureView(page: Page, name: string, options: { sizes?: Array<"phone" | "desktop"> } = {}) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize();
  const serious: AxeFinding[] = [];
  for (const size of options.sizes ?? ["phone", "desktop"]) {
    await page.setViewportSize(size === "phone" ? PHONE : DESKTOP);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${size}.png`), fullPage: true, animations: "disabled" });
    const result = await axeOn(page).withTags([...WCAG_21_AA, "best-practice"]).analyze();
    for (const v of result.violations) {
      const finding = { view: `${name} (${size})`, id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length };
      axeFindings.push(finding);
      if (v.impact === "serious" || v.impact === "critical") serious.push({ ...finding, help: `${v.help}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}` });
    }
  }
  if (original) await page.setViewportSize(original);
  return serious;
}

/**
 * Before a check: the page's requests done (e.g. next-auth's CSRF token that
 * enables a submit button) and no colour transition half-way (axe would
 * measure the contrast of an in-between colour).
 */
export async function settled(view: Page) {
  await view.waitForLoadState("networkidle");
  await view.waitForFunction(() =>
    document.getAnimations().every((a) => a.effect?.getTiming().iterations === Infinity || a.playState !== "running"),
  );
}

/** A settled portal page: screenshot under `portal/<name>` and no serious or critical axe violation. */
export async function expectPortalAccessible(view: Page, name: string) {
  await settled(view);
  const serious = await captureView(view, `portal/${name}`);
  expect(serious, `${name}: serious/critical axe violations`).toEqual([]);
}

/**
 * A browser context already signed in to the portal as `developer` (their
 * next-auth cookies, from tests/support/portal.ts), for tests whose subject
 * is not the sign-in pages (those are portal.test.ts's).
 */
export async function signedInContext(browser: Browser, developer: { cookie: string }, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: "en-GB", baseURL });
  await context.addCookies(
    developer.cookie.split("; ").map((pair) => {
      const eq = pair.indexOf("=");
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: baseURL };
    }),
  );
  return context;
}

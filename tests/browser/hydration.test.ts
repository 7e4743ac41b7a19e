import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { shared } from "../support/api";
import { useServerDatabase } from "../support/domain";
import { signUpDeveloper } from "../support/portal";
import { chromiumMissing, launchChromium, signedInContext } from "./browser";

/**
 * Forms before hydration (components/ui/hydration.tsx): on a loaded machine
 * the page's script can arrive well after its HTML. Here the script chunks
 * are held back until the test lets them through. Until then the portal's
 * "Create an app" form is visibly disabled and busy (nobody can type a name
 * React would then lose, nor submit it); once hydrated, the name typed as
 * soon as the field was usable creates the app under that name.
 */
useServerDatabase();

const t = portalText;
const suiteName = chromiumMissing ? `forms before hydration (SKIPPED: ${chromiumMissing})` : "forms before hydration in Chromium";

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  it("the create-app form is disabled until hydrated, then the name typed first creates the app", async () => {
    const developer = await signUpDeveloper();
    const browser = await launchChromium("none");
    try {
      const context = await signedInContext(browser, developer, shared().url);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held = 0;
      // Only the scripts: the stylesheet must arrive (inline scripts wait for it, and with them the HTML's parsing).
      await context.route("**/_next/static/chunks/*.js", async (route: Route) => {
        held++;
        await released;
        await route.continue();
      });
      const page = await context.newPage();
      await page.goto("/dashboard/apps?environment=test", { waitUntil: "domcontentloaded" });
      const name = page.getByLabel(t.apps.name);
      const create = page.getByRole("button", { name: t.apps.create(t.environment.test) });
      await name.waitFor();
      await create.waitFor();
      // The HTML is here, its script is not: disabled, and announced busy.
      expect(held).toBeGreaterThan(0);
      expect(await name.isDisabled()).toBe(true);
      expect(await create.isDisabled()).toBe(true);
      expect(await page.locator("fieldset[aria-busy=true]").count()).toBe(1);

      // Typing as soon as the field takes input: Playwright waits for it to be enabled, which is after hydration.
      const typed = name.fill("Shop before hydration").then(() => create.click());
      release();
      await typed;
      await page.getByTestId("secrets-once").waitFor();
      await page.getByRole("link", { name: t.apps.open("Shop before hydration") }).waitFor();
      expect(await page.getByText("Name is required").count()).toBe(0);
      expect(await page.locator("fieldset[aria-busy=true]").count()).toBe(0);
    } finally {
      await browser.close();
    }
  });
});

import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { createSession, createWorkflow, shared } from "../support/api";
import { sql } from "../support/database";
import { setWalletBalance, useServerDatabase } from "../support/domain";
import { signUpDeveloper, type PortalDeveloper } from "../support/portal";
import { ARTIFACTS, chromiumMissing, expectPortalAccessible, launchChromium, signedInContext } from "./browser";

/**
 * The developer portal's organization pages in Debian's Chromium: the
 * roster (members added by pasting emails: a list with an invalid email is
 * refused as a whole and the errors are shown, then added with a duplicate
 * skipped; the status filter; invite shows the new activation link;
 * deactivate, reactivate and remove behind confirmations that say what they
 * do), seats and billing (trialing with the trial end and 0 seats after the
 * first add, an invoice, past due with the way to the wallet) and the
 * recovery log (a not-eligible request, a recovery session linked to its
 * page). Data the portal cannot make (active members, invoices, recovery
 * requests) is written with SQL into this test's own organization only.
 * Every view is axe-checked at phone and desktop size.
 */
useServerDatabase();

const t = portalText;
const o = t.organization;
const r = o.roster;
const b = o.billing;

/** Each `it` axe-checks several views at two sizes: seconds each on a busy machine. */
const LONG = 180_000;

let dev: PortalDeveloper;
let browser: Browser;
let page: Page;
const tag = randomBytes(4).toString("hex");
const ann = `ann-${tag}@example.com`;
const bob = `bob-${tag}@example.com`;
const cat = `cat-${tag}@example.com`;
const dan = `dan-${tag}@example.com`;

const suiteName = chromiumMissing ? `portal roster (SKIPPED: ${chromiumMissing})` : "portal roster, billing and recovery in Chromium";

const h1 = (name: string | RegExp) => page.getByRole("heading", { level: 1, name });
const row = (email: string) => page.getByRole("row").filter({ hasText: email });
const memberRows = () => page.getByRole("region", { name: t.common.table(r.listHeading) }).locator("tbody tr");
const formatDate = (at: Date) => `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;

async function members() {
  return sql(shared().env, `SELECT member_id, email, status FROM members WHERE organization_id = $1 ORDER BY email`, [dev.organizationId]);
}

async function memberId(email: string): Promise<string> {
  const [m] = await sql(shared().env, `SELECT member_id FROM members WHERE organization_id = $1 AND email = $2`, [dev.organizationId, email]);
  return m.member_id;
}

async function filterBy(status: string) {
  await page.getByLabel(r.filterLabel, { exact: true }).selectOption(status);
}

/** Opens the confirmation of `action` on `email`'s row, checks it says `consequence`, and confirms. */
async function confirmAction(label: string, email: string, heading: string, consequence: string, confirm: string, screenshot?: string) {
  await page.getByRole("button", { name: r.actionLabel(label, email), exact: true }).click();
  const dialog = page.getByRole("dialog", { name: heading });
  await dialog.waitFor();
  await dialog.getByText(consequence).waitFor();
  if (screenshot) await expectPortalAccessible(page, screenshot);
  await dialog.getByRole("button", { name: confirm }).click();
  await dialog.waitFor({ state: "detached" });
}

describe.skipIf(chromiumMissing !== null)(suiteName, () => {
  beforeAll(async () => {
    fs.mkdirSync(path.join(ARTIFACTS, "screenshots", "portal"), { recursive: true });
    [dev, browser] = await Promise.all([signUpDeveloper(), launchChromium("none")]);
    page = await (await signedInContext(browser, dev, shared().url)).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it(
    "adds members by pasting emails: a list with an invalid email adds nothing and says why; then added, the duplicate skipped",
    async () => {
      await page.goto("/dashboard/apps");
      await page.getByRole("navigation", { name: t.shell.mainNav }).getByRole("link", { name: o.nav.roster }).click();
      await h1(r.title).waitFor();
      await page.getByText(r.empty).waitFor();
      await expectPortalAccessible(page, "roster-empty");

      const emails = page.getByLabel(r.emails, { exact: true });
      await emails.fill(`${ann}, ${bob}\n${ann}\nnot-an-email\n${cat}`);
      await page.getByRole("button", { name: r.addMany, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: r.confirmAddHeading(5) });
      await dialog.waitFor();
      for (const line of r.addConsequences) await dialog.getByText(line).waitFor();
      await expectPortalAccessible(page, "roster-add-confirm");
      await dialog.getByRole("button", { name: r.confirmAdd(5) }).click();
      await page.getByTestId("add-members-errors").getByText(r.lineError(4, "not-an-email", "Invalid email address")).waitFor();
      expect(await emails.getAttribute("aria-invalid")).toBe("true");
      expect(await emails.inputValue()).toBe(`${ann}, ${bob}\n${ann}\nnot-an-email\n${cat}`);
      expect(await members()).toEqual([]);
      await page.getByText(r.empty).waitFor();
      await expectPortalAccessible(page, "roster-add-refused");

      await emails.fill(`${ann}, ${bob}\n${ann}\n${cat.toUpperCase()}`);
      await page.getByRole("button", { name: r.addMany, exact: true }).click();
      await page.getByRole("dialog", { name: r.confirmAddHeading(4) }).getByRole("button", { name: r.confirmAdd(4) }).click();
      await page.getByText(r.added(3)).waitFor();
      await page.getByText(r.skipped(1, ann)).waitFor();
      // No mail server on the test server: `auto` returns face links to deliver.
      const links = (await page.getByLabel(r.linksHeading).inputValue()).split("\n");
      expect(links).toHaveLength(3);
      for (const [i, email] of [ann, bob, cat].entries()) expect(links[i]).toMatch(new RegExp(`^${email} https?://[^ ]+/activate/act_`));
      expect(await emails.inputValue()).toBe("");
      expect((await members()).map((m) => [m.email, m.status])).toEqual([
        [ann, "link_sent"],
        [bob, "link_sent"],
        [cat, "link_sent"],
      ]);
      await expect.poll(() => memberRows().count()).toBe(3);
      expect(await row(cat).getByText(o.statuses.link_sent!).count()).toBe(1);
      await expectPortalAccessible(page, "roster-added");

      // One member with the form: a bad email is shown next to its field.
      await page.getByLabel(r.email, { exact: true }).fill("nobody@");
      await page.getByLabel(r.firstName).fill("Dan");
      await page.getByRole("button", { name: r.addOne, exact: true }).click();
      await page.getByRole("dialog", { name: r.confirmAddHeading(1) }).getByRole("button", { name: r.confirmAdd(1) }).click();
      await page.getByText(r.addRefusedFields).waitFor();
      expect(await page.getByLabel(r.email, { exact: true }).getAttribute("aria-invalid")).toBe("true");
      await page.getByLabel(r.email, { exact: true }).fill(dan);
      await page.getByLabel(r.role, { exact: true }).selectOption("admin");
      await page.getByRole("button", { name: r.addOne, exact: true }).click();
      await page.getByRole("dialog", { name: r.confirmAddHeading(1) }).getByRole("button", { name: r.confirmAdd(1) }).click();
      await page.getByText(r.added(1)).waitFor();
      await expect.poll(() => memberRows().count()).toBe(4);
      expect(await row(dan).getByRole("cell", { name: "Dan", exact: true }).count()).toBe(1);
      expect(await row(dan).getByRole("cell", { name: o.roles.admin!, exact: true }).count()).toBe(1);
    },
    LONG,
  );

  it(
    "billing: trialing with the trial end and 0 seats after the first add; an invoice appears once there is one",
    async () => {
      await page.getByRole("link", { name: o.nav.billing }).click();
      await h1(b.title).waitFor();
      const [subscription] = await sql(shared().env, `SELECT id, trial_ends_at FROM org_subscriptions WHERE organization_id = $1`, [dev.organizationId]);
      expect(subscription).toBeTruthy();
      expect(await page.getByTestId("subscription-status").textContent()).toBe(b.statuses.trialing);
      expect(await page.getByTestId("trial-ends").textContent()).toBe(formatDate(subscription.trial_ends_at));
      expect(await page.getByTestId("seats").textContent()).toBe("0");
      expect(await page.getByTestId("estimated-next-charge").textContent()).toContain("0.00 USD");
      expect(await page.getByTestId("billing-balance").textContent()).toContain("100.00 USD");
      await page.getByText(b.invoicesEmpty).waitFor();
      await expectPortalAccessible(page, "billing-trial");

      // Two active members (seats), and a paid invoice of an earlier period (as the billing run writes it).
      for (const email of [`eve-${tag}@example.com`, `fay-${tag}@example.com`]) {
        await sql(
          shared().env,
          `INSERT INTO members (member_id, organization_id, email, role, status, activated_at, updated_at) VALUES ($1, $2, $3, 'member', 'active', now(), now())`,
          [`vmem_${randomBytes(12).toString("hex")}`, dev.organizationId, email],
        );
      }
      const periodStart = new Date(Date.UTC(2025, 0, 15, 10, 0));
      const periodEnd = new Date(Date.UTC(2025, 1, 15, 10, 0));
      await sql(
        shared().env,
        `INSERT INTO seat_invoices (id, subscription_id, organization_id, period_start, period_end, seats, price_per_seat_cents, amount_cents, status, paid_at, created_at)
         VALUES ($1, $2, $3, $4, $5, 3, 99, 297, 'paid', $5, $5)`,
        [randomUUID(), subscription.id, dev.organizationId, periodStart, periodEnd],
      );
      await page.reload();
      await h1(b.title).waitFor();
      expect(await page.getByTestId("seats").textContent()).toBe("2");
      expect(await page.getByTestId("estimated-next-charge").textContent()).toContain("1.98 USD");
      const invoice = page.getByRole("region", { name: t.common.table(b.invoicesHeading) }).locator("tbody tr");
      await expect.poll(() => invoice.count()).toBe(1);
      expect(await invoice.getByRole("cell").allTextContents()).toEqual([
        b.period(formatDate(periodStart), formatDate(periodEnd)),
        "3",
        "2.97 USD",
        b.invoiceStatuses.paid,
        formatDate(periodEnd),
      ]);
      await expectPortalAccessible(page, "billing-invoice");
    },
    LONG,
  );

  it(
    "filters by status; invite shows the new link; deactivate, reactivate and remove after a confirmation",
    async () => {
      await page.getByRole("link", { name: o.nav.roster }).click();
      await h1(r.title).waitFor();
      await expect.poll(() => memberRows().count()).toBe(6);

      await filterBy("active");
      await expect.poll(() => memberRows().count()).toBe(2);
      expect(await memberRows().filter({ hasText: `eve-${tag}` }).count()).toBe(1);
      await filterBy("link_sent");
      await expect.poll(() => memberRows().count()).toBe(4);
      await filterBy("invited");
      await page.getByText(r.emptyFiltered).waitFor();
      await filterBy("all");
      await expect.poll(() => memberRows().count()).toBe(6);

      // Re-invite: a new link (the old one stops working), with a copy button.
      const before = await sql(shared().env, `SELECT activation_token_hash FROM members WHERE organization_id = $1 AND email = $2`, [dev.organizationId, bob]);
      await confirmAction(r.reinvite, bob, r.confirm.invite.heading(bob), r.confirm.invite.consequences[0]!, r.confirm.invite.button(bob));
      await page.getByText(r.invited(bob)).waitFor();
      expect(await page.getByTestId("activation-link").textContent()).toMatch(/\/activate\/act_/);
      await page.getByRole("button", { name: r.copyLink }).waitFor();
      const after = await sql(shared().env, `SELECT activation_token_hash FROM members WHERE organization_id = $1 AND email = $2`, [dev.organizationId, bob]);
      expect(after[0].activation_token_hash).not.toBe(before[0].activation_token_hash);
      await expectPortalAccessible(page, "roster-invited");

      // An active member cannot be invited (the page offers no button; the route answers 409).
      expect(await row(`eve-${tag}`).getByRole("button", { name: new RegExp(`^(${r.invite}|${r.reinvite}) `) }).count()).toBe(0);
      const eve = await memberId(`eve-${tag}@example.com`);
      const refused = await dev.call("POST", `/api/portal/organization/members/${eve}/invite`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe("already_active");

      // Deactivate: the confirmation says billing stops and sign-ins end; the row stays, deactivated.
      await confirmAction(
        r.deactivate,
        ann,
        r.confirm.deactivate.heading(ann),
        r.confirm.deactivate.consequences[1]!,
        r.confirm.deactivate.button(ann),
        "roster-deactivate-confirm",
      );
      await page.getByText(r.deactivated(ann)).waitFor();
      await expect.poll(() => row(ann).getByText(o.statuses.deactivated!).count()).toBe(1);
      await filterBy("deactivated");
      await expect.poll(() => memberRows().count()).toBe(1);
      expect(await memberRows().first().textContent()).toContain(ann);
      await expectPortalAccessible(page, "roster-deactivated");

      // Reactivate: no account was ever bound, so invited again (must activate by face).
      await confirmAction(r.reactivate, ann, r.confirm.reactivate.heading(ann), r.confirm.reactivate.consequences[1]!, r.confirm.reactivate.button(ann));
      await page.getByText(r.reactivated(ann, o.statuses.invited!)).waitFor();
      await page.getByText(r.emptyFiltered).waitFor();
      await filterBy("invited");
      await expect.poll(() => memberRows().count()).toBe(1);
      expect(await memberRows().first().textContent()).toContain(ann);

      // Remove: gone from the roster for good.
      await filterBy("all");
      await confirmAction(r.remove, cat, r.confirm.remove.heading(cat), r.confirm.remove.consequences[0]!, r.confirm.remove.button(cat));
      await page.getByText(r.removed(cat)).waitFor();
      await expect.poll(() => row(cat).count()).toBe(0);
      expect((await members()).map((m) => m.email)).not.toContain(cat);
      expect((await members()).find((m) => m.email === ann)?.status).toBe("invited");
      await expectPortalAccessible(page, "roster-removed");

      // Another organization's developer can neither see nor touch these members.
      const other = await signUpDeveloper();
      const ids = { ann: await memberId(ann) };
      expect((await other.call("POST", `/api/portal/organization/members/${ids.ann}/deactivate`)).status).toBe(404);
      expect((await other.call("GET", "/api/portal/organization/members")).body.data.members).toEqual([]);
      expect((await other.call("DELETE", `/api/portal/organization/members/${ids.ann}`)).body.data).toEqual({ member: null, already_removed: true });
      expect((await members()).find((m) => m.email === ann)?.status).toBe("invited");
    },
    LONG,
  );

  it(
    "the recovery log: a request that was not eligible, and a recovery session linked to its page",
    async () => {
      const app = await dev.call("POST", "/api/portal/apps", { json: { name: "Recovery shop", environment: "test" } });
      const appId = app.body.data.app_id as string;
      const tenant = { apiKey: app.body.data.api_key as string };
      const sessionId = (await createSession(tenant, { workflow_id: await createWorkflow(tenant, ["liveness"]) })).session_id as string;
      const annId = await memberId(ann);
      const bobId = await memberId(bob);
      await sql(
        shared().env,
        `INSERT INTO recovery_requests (id, organization_id, app_id, member_id, variant, eligible, session_id, created_at)
         VALUES ($1, $2, $3, $4, 'with_id', false, NULL, now() - interval '1 hour'), ($5, $2, $3, $6, 'without_id', true, $7, now())`,
        [randomUUID(), dev.organizationId, appId, annId, randomUUID(), bobId, sessionId],
      );

      await page.getByRole("link", { name: o.nav.recovery }).click();
      await h1(o.recovery.title).waitFor();
      const rows = page.getByRole("region", { name: t.common.table(o.recovery.listHeading) }).locator("tbody tr");
      await expect.poll(() => rows.count()).toBe(2);
      const [newest, oldest] = [rows.nth(0), rows.nth(1)];
      expect(await oldest.textContent()).toContain(ann);
      expect(await oldest.textContent()).toContain(o.recovery.variants.with_id);
      expect(await oldest.getByText(o.recovery.notEligible).count()).toBe(1);
      expect(await newest.textContent()).toContain(bob);
      expect(await newest.textContent()).toContain(o.recovery.variants.without_id);
      expect(await newest.getByText(t.sessions.statuses.NOT_STARTED!).count()).toBe(1);
      await expectPortalAccessible(page, "recovery-log");

      await newest.getByRole("link", { name: o.recovery.openSession(sessionId) }).click();
      await page.waitForURL(`**/dashboard/apps/${appId}/sessions/${sessionId}`);
      await h1(t.sessions.open(sessionId)).waitFor();
    },
    LONG,
  );

  it(
    "past due: an invoice open for more than 7 days says to top up the wallet, and adding members is refused until paid",
    async () => {
      // An empty wallet, so no billing run (the server's own, every 10 minutes) collects the invoice meanwhile.
      await setWalletBalance(dev.organizationId, 0);
      const [subscription] = await sql(shared().env, `SELECT id FROM org_subscriptions WHERE organization_id = $1`, [dev.organizationId]);
      const periodStart = new Date(Date.UTC(2025, 1, 15, 10, 0));
      const periodEnd = new Date(Date.UTC(2025, 2, 15, 10, 0));
      await sql(
        shared().env,
        `INSERT INTO seat_invoices (id, subscription_id, organization_id, period_start, period_end, seats, price_per_seat_cents, amount_cents, status, created_at)
         VALUES ($1, $2, $3, $4, $5, 2, 99, 198, 'open', now() - interval '8 days')`,
        [randomUUID(), subscription.id, dev.organizationId, periodStart, periodEnd],
      );
      await page.getByRole("link", { name: o.nav.billing }).click();
      await h1(b.title).waitFor();
      expect(await page.getByTestId("subscription-status").textContent()).toBe(b.statuses.past_due);
      await page.getByText(b.pastDue).waitFor();
      const invoices = page.getByRole("region", { name: t.common.table(b.invoicesHeading) }).locator("tbody tr");
      await expect.poll(() => invoices.count()).toBe(2);
      expect(await invoices.first().textContent()).toContain(b.invoiceStatuses.open);
      await expectPortalAccessible(page, "billing-past-due");
      await page.getByRole("link", { name: b.topUpLink }).first().click();
      await h1(t.wallet.title).waitFor();

      // While past due, no seat can be added: adding members is refused (402) with the way to the wallet.
      await page.getByRole("link", { name: o.nav.roster }).click();
      await h1(r.title).waitFor();
      const refused = `refused-${tag}@example.com`;
      const emails = page.getByLabel(r.emails, { exact: true });
      await emails.fill(refused);
      await page.getByRole("button", { name: r.addMany, exact: true }).click();
      await page.getByRole("dialog", { name: r.confirmAddHeading(1) }).getByRole("button", { name: r.confirmAdd(1) }).click();
      await page.getByText(r.errors.insufficient_funds).waitFor();
      expect((await members()).find((m) => m.email === refused)).toBeUndefined();
      await expectPortalAccessible(page, "roster-past-due-refused");
    },
    LONG,
  );
});

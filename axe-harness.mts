import AxeBuilder from "@axe-core/playwright";
import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
for (const vp of (process.env.VP === "d" ? [{ width: 1280, height: 800 }] : [{ width: 390, height: 844 }, { width: 1280, height: 800 }])) {
  console.log("t", Date.now());
  const page = await (await browser.newContext({ viewport: vp })).newPage();
  const foreign: string[] = [];
  page.on("request", (r) => { if (!r.url().startsWith("http://127.0.0.1:4777") && !r.url().startsWith("data:")) foreign.push(r.url()); });
  page.on("response", (r) => { if (r.status() >= 400) console.log("status", r.status(), r.url()); });
  page.on("console", async (m) => { if (process.env.VERR && m.text().startsWith("[Object")) console.log(JSON.stringify(await m.args()[0].jsonValue()).slice(0, 3000)); if (m.type() === "error" || m.type() === "warning") console.log("console", m.type(), m.text().slice(0, 200), JSON.stringify(m.args().length)); });
  await page.goto("http://127.0.0.1:4777/docs");
  await page.getByRole("heading", { name: "Quick start" }).first().waitFor({ timeout: 30000 });
  await page.waitForTimeout(3000);
  if (process.argv[2]) await page.screenshot({ path: `/tmp/docs-harness/${vp.width}.png`, fullPage: false });
  console.log("t axe", Date.now());
  const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  console.log(vp.width, "foreign", foreign);
  for (const v of r.violations) console.log(vp.width, v.impact, v.id, v.nodes.length, v.nodes.slice(0, Number(process.env.N ?? 6)).map((n) => n.target.join(" ") + " :: " + (process.env.HTML ? n.html.slice(0, 300) + " :: " : "") + (n.any[0]?.message ?? n.failureSummary ?? "").slice(0, 160)).join("\n    "));
  if (process.env.BUTTONS) console.log("buttons:", (await page.getByRole("button").allInnerTexts()).filter(Boolean).slice(0, 40).join(" | "));
  await page.close();
}
await browser.close();

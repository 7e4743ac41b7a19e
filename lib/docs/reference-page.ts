import { readFile } from "node:fs/promises";
import path from "node:path";
import { ApiReference } from "@scalar/nextjs-api-reference";
import { REFERENCE_PAGE_CSS } from "./reference-page-css";

/**
 * The API reference page (/docs): Scalar's Next.js handler renders the
 * OpenAPI document served at /api/v2/openapi.json. Its script is served by
 * this app (/docs/scalar.js, from the installed @scalar/api-reference), not a
 * CDN: the service runs offline and its pages load nothing from elsewhere.
 *
 * Every Scalar feature that talks to Scalar's servers is off (options of
 * @scalar/types' api-reference configuration): the "Ask AI" agent (it sends
 * the document to Scalar), the developer toolbar (Share and Deploy upload the
 * document to Scalar's registry), the "Open API Client" link (client.scalar.com
 * with this document's URL) and telemetry. The in-page client ("Test
 * Request") sends its requests straight to this server (no `proxyUrl`).
 */
export const OPENAPI_URL = "/api/v2/openapi.json";
export const REFERENCE_SCRIPT_URL = "/docs/scalar.js";

export const REFERENCE_PAGE_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const render = ApiReference({
  url: OPENAPI_URL,
  cdn: REFERENCE_SCRIPT_URL,
  pageTitle: "API reference · Identity verification service",
  withDefaultFonts: false,
  hideClientButton: true,
  defaultOpenAllTags: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
  telemetry: false,
  customCss: REFERENCE_PAGE_CSS,
});

/** The page's HTML; Scalar's template has no `lang`, so the page says it is English. */
export async function referencePageHtml(): Promise<string> {
  return (await render().text()).replace(/<html>/, '<html lang="en">');
}

let script: Promise<Buffer> | undefined;

/** The browser bundle of @scalar/api-reference (read once). */
export function referenceScript(): Promise<Buffer> {
  return (script ??= readFile(path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js")));
}

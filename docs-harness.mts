// temporary iteration harness (not committed)
import http from "node:http";
import { readFileSync } from "node:fs";
const { referencePageHtml, referenceScript, REFERENCE_PAGE_CSP } = await import("./lib/docs/reference-page.ts?" + Date.now());
const doc = readFileSync("sdk/openapi.json");
http.createServer(async (req, res) => {
  if (req.url === "/docs") { res.writeHead(200, { "content-type": "text/html", "content-security-policy": REFERENCE_PAGE_CSP }); res.end(await referencePageHtml()); return; }
  if (req.url === "/docs/scalar.js") { res.writeHead(200, { "content-type": "text/javascript" }); res.end(await referenceScript()); return; }
  if (req.url === "/api/v2/openapi.json") { res.writeHead(200, { "content-type": "application/json" }); res.end(doc); return; }
  res.writeHead(404); res.end();
}).listen(4777, "127.0.0.1", () => console.log("listening"));

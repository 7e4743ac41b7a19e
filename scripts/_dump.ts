import fs from "node:fs";
import path from "node:path";
import { readFrontText, closeVisionPool } from "@/lib/vision/pool";
const dir = "../shared/validation/documents";
const m = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
(async () => {
  const out: Record<string, unknown> = {};
  const fronts = new Set<string>();
  for (const c of m.cases) fronts.add(c.files.front);
  for (const f of ["licence-a-front.jpg","licence-a-front-degraded.jpg","licence-b-front.jpg","id-card-a-front.jpg","id-card-b-front.jpg"]) fronts.add("FIX:"+f);
  for (const f of fronts) {
    const p = f.startsWith("FIX:") ? path.join("tests/fixtures/documents", f.slice(4)) : path.join(dir, f);
    const t0 = Date.now();
    const r = await readFrontText(fs.readFileSync(p));
    out[f] = r.lines;
    console.error(f, Date.now() - t0, "ms", r.lines.length);
  }
  fs.writeFileSync(process.env.OUT ?? "/tmp/front-ocr.json", JSON.stringify(out));
  await closeVisionPool();
})();

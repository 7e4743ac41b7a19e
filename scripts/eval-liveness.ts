/**
 * npm run eval:liveness [-- --details]: the presentation-attack evaluation
 * (lib/liveness/pad-evaluation.ts) with APCER per attack kind and BPCER on
 * the live bursts; --details prints every burst's signals. Exits 1 when a
 * target is missed: APCER 0% on every attack kind, BPCER at most 5%.
 */
import { parseArgs } from "node:util";
import { closeVisionPool } from "@/lib/vision/pool";
import { evaluationBursts, judgeEvaluationBurst, summarise, type BurstResult } from "@/lib/liveness/pad-evaluation";

const { values } = parseArgs({ options: { details: { type: "boolean", default: false } } });

const fmt = (xs: Array<number | null>, digits = 2) => xs.map((x) => (x === null ? "-" : x.toFixed(digits))).join(" ");

async function main() {
  const results: BurstResult[] = [];
  try {
    for (const burst of evaluationBursts()) results.push(await judgeEvaluationBurst(burst));
  } finally {
    await closeVisionPool();
  }
  if (values.details) {
    for (const { burst, verdict } of results) {
      const pad = verdict.data.presentation_attack;
      console.log(
        `${burst.name.padEnd(20)} ${burst.kind.padEnd(7)} ${(verdict.error?.code ?? "passed").padEnd(20)} yaw ${fmt(verdict.data.yaw_deg, 0)} | texture ${fmt(pad.signals.texture_peak)} | glare ${fmt(pad.signals.glare_share, 3)} | turns ${pad.signals.turns.map((t) => `${t.residual ?? "-"}/${t.flat_below}`).join(" ")} | model ${fmt(pad.signals.antispoof_model)}`,
      );
    }
    console.log();
  }
  console.log("kind".padEnd(8), "bursts".padStart(7), "accepted".padStart(9), "refused".padStart(8), "metric".padStart(7), "rate".padStart(7), "PAD flags".padStart(10), "  outcomes");
  let missed = false;
  for (const s of summarise(results)) {
    const target = s.metric === "APCER" ? s.rate === 0 : s.rate <= 0.05;
    missed ||= !target;
    console.log(
      s.kind.padEnd(8),
      String(s.bursts).padStart(7),
      String(s.accepted).padStart(9),
      String(s.refused).padStart(8),
      s.metric.padStart(7),
      `${(s.rate * 100).toFixed(1)}%`.padStart(7),
      String(s.padFlagged).padStart(10),
      " ",
      Object.entries(s.codes)
        .map(([code, n]) => `${code} ${n}`)
        .join(", "),
      target ? "" : "  <- target missed",
    );
  }
  console.log("targets: APCER 0% on every attack kind, BPCER <= 5% on live bursts");
  console.log("PAD flags: bursts the presentation-attack signals flag on their own, even where the challenge or identity check refused first");
  process.exit(missed ? 1 : 0);
}

void main();

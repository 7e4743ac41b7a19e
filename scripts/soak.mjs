// `npm run soak`: the long version of the reliability suite's bounded CI
// part. Runs tests/integration/fuzz.test.ts with SOAK_FUZZ_REQUESTS hostile
// requests (100,000 by default) from a random seed (FUZZ_SEED to replay
// one), on the built server like `npm test` (SKIP_BUILD=1 reuses a build),
// and prints the figures: requests, answers by status, problems.
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";

const seed = process.env.FUZZ_SEED ?? String(randomInt(1, 2 ** 31));
const requests = process.env.SOAK_FUZZ_REQUESTS ?? "100000";
process.stdout.write(`soak: ${requests} fuzz requests, seed ${seed} (replay with FUZZ_SEED=${seed})\n`);
const run = spawnSync(process.execPath, ["scripts/test.mjs", "tests/integration/fuzz.test.ts"], {
  stdio: "inherit",
  env: { ...process.env, FUZZ_REQUESTS: requests, FUZZ_SEED: seed },
});
process.exit(run.status ?? 1);

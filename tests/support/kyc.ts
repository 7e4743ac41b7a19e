import { expect } from "vitest";
import { api, bearer } from "./api";
import { fixture, imageForm } from "./images";
import { underScreenLight } from "./screen-light";

/**
 * A person going through the hosted-flow API with the committed fixtures
 * (tests/fixtures/README.md): person A's and B's licences, and person A's
 * head-turn bursts. `base`: another server than the shared one.
 */
export const burst = (name: string) => [1, 2, 3, 4, 5].map((i) => fixture("faces", name, `${i}.jpg`));
export const licence = (who: "a" | "b" | "a-expired") => ({ front: fixture("documents", `licence-${who}-front.jpg`), back: fixture("documents", `licence-${who}-back.jpg`) });

export function postDocument(token: string, type: string, files: Record<string, Buffer>, base?: string) {
  return api("POST", "/api/v2/document", { base, headers: bearer(token), form: imageForm(files, { document_type: type }) });
}

/** Which burst of person A performs a challenge's turns, in its order. */
export const PERFORMS: Record<string, string> = { "turn_left,turn_right": "a-left-right", "turn_right,turn_left": "a-right-left" };
export const personA = (performed: string[]) => burst(PERFORMS[performed.join()]!);

/**
 * One liveness challenge, answered by `framesOf` the turns performed: by
 * default person A performing what it asks (`order: "reverse"`: the
 * opposite order, which must fail), in front of the screen's colours
 * (tests/support/screen-light.ts; `screenLight: false`: frames that ignore
 * them, a recording).
 */
export async function postBurst(
  token: string,
  order: "as_asked" | "reverse" = "as_asked",
  framesOf: (performed: string[]) => Buffer[] = personA,
  base?: string,
  { screenLight = true }: { screenLight?: boolean } = {},
) {
  const res = await api("POST", "/api/v2/antispoof/challenge", { base, headers: bearer(token) });
  expect(res.status).toBe(201);
  const { challenge_id, actions, colours } = res.body.data as { challenge_id: string; actions: string[]; colours: string[] };
  const performed = order === "as_asked" ? actions : [...actions].reverse();
  const frames = screenLight ? await underScreenLight(framesOf(performed), colours) : framesOf(performed);
  return api("POST", "/api/v2/antispoof", { base, headers: bearer(token), form: imageForm({ frames }, { challenge_id }) });
}

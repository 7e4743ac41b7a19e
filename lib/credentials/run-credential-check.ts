import { z } from "zod";
import type { Session } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import type { DocumentFields } from "@/lib/documents/document-reading";
import { ApiError } from "@/lib/http/api-error";
import { readProfile } from "@/lib/identity/profile";
import { endOfDay, wasReused } from "@/lib/identity/proofs";
import { loadJsonArtifact } from "@/lib/artifacts/artifacts";
import { lockOpenSession } from "@/lib/sessions/open-session";
import type { WorkflowSnapshot } from "@/lib/sessions/present";
import { recordCheckResult } from "@/lib/sessions/record-check";
import { adapterFor, findCatalogueEntry } from "@/lib/licence-registries/catalogue";
import { holderNameMatch, holderOf } from "@/lib/licence-registries/holder-name";
import { LICENCE_INPUT_RULES } from "@/lib/licence-registries/inputs";
import { sessionLicenceTypes } from "./session-licence-types";
import { statusOn } from "@/lib/licence-registries/normalise";
import { RegistryUnavailableError, type CatalogueEntry, type HolderName, type LicenceInputField, type LicenceRecord, type RegistryLicence } from "@/lib/licence-registries/types";

/**
 * POST /api/v2/credential: the hosted flow's licence step (docs/licences.md). The person picks a credential (its
 * `credential_code`, or spec 2.6's `provider_code` + `license_type` +
 * `state_code`) and answers its `required_fields`; the registry is asked,
 * and the licence must belong to the person whose document this session
 * verified. The check (spec 2.2 `match`, `license { status, expires_at }`):
 * - passed: found, the holder is the verified person, active and unexpired;
 * - failed: not found (`license_not_found`), another person's licence
 *   (`license_holder_mismatch`: nothing about it is returned), expired
 *   (`license_expired`), suspended, revoked or inactive (`license_inactive`);
 * - review: the registry did not answer (`registry_unavailable`: not
 *   billed, the try given back), or its holder's name is close to the
 *   verified one but not the same (`license_holder_uncertain`): the person
 *   may try again, or finish and a reviewer decides.
 * `kyc_required` (400) until id_verification passed in this session.
 */
export const CredentialBody = z
  .strictObject({
    credential_code: z.string().trim().min(1).max(120).optional(),
    provider_code: z.string().trim().min(1).max(60).optional(),
    license_type: z.string().trim().min(1).max(200).optional(),
    state_code: z.string().trim().min(1).max(10).optional(),
    fields: z.record(z.string(), z.string().max(200)).default({}),
  })
  .refine((b) => b.credential_code !== undefined || (b.provider_code && b.license_type && b.state_code), {
    message: "Give credential_code, or provider_code, license_type and state_code",
    path: ["credential_code"],
  });
export type CredentialBody = z.infer<typeof CredentialBody>;

function credentialSettings(session: Session) {
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.credential;
  return { license_types: sessionLicenceTypes(session), max_attempts: settings?.max_attempts ?? 5 };
}

/** The name this session verified: the document read in it, or the account's document proof it reused. */
async function verifiedName(session: Session, reused: boolean): Promise<HolderName | null> {
  if (reused && session.accountId) {
    const document = (await readProfile(session.accountId, now())).document;
    return document ? holderOf(document.content) : null;
  }
  const fields = await loadJsonArtifact<DocumentFields>(session.id, "document_fields");
  return fields ? holderOf(fields) : null;
}

function validatedInputs(entry: CatalogueEntry, fields: Record<string, string>) {
  const errors: Record<string, string[]> = Object.create(null);
  const inputs: Partial<Record<LicenceInputField, string>> = {};
  for (const name of entry.required_fields) {
    const parsed = LICENCE_INPUT_RULES[name].safeParse(fields[name] ?? "");
    if (parsed.success) inputs[name] = parsed.data;
    else errors[`fields.${name}`] = parsed.error.issues.map((i) => i.message);
  }
  for (const name of Object.keys(fields)) {
    if (!(entry.required_fields as string[]).includes(name)) errors[`fields.${name}`] = [`${entry.provider_display_name} does not ask for ${name}`];
  }
  if (Object.keys(errors).length) {
    throw new ApiError("invalid_request", { message: `Invalid licence details: ${Object.keys(errors).join(", ")}`, data: { errors } });
  }
  return inputs;
}

type Outcome = {
  status: "passed" | "failed" | "review";
  data: Record<string, unknown>;
  error: { code: string; message: string } | null;
  licence?: RegistryLicence;
};

/** The check's verdict on what the registry returned for the verified person (`today`: ISO date). */
export function credentialVerdict(found: RegistryLicence[], person: HolderName, today: string): Outcome {
  if (found.length === 0) {
    return { status: "failed", data: { match: false, license: null }, error: { code: "license_not_found", message: "The registry has no such licence" } };
  }
  const judged = found.map((l) => ({ licence: { ...l, status: statusOn(l.status, l.expires_on, today) }, match: holderNameMatch(l.holder, person) }));
  const theirs = judged.filter((j) => j.match === "same").map((j) => j.licence);
  if (theirs.length === 0) {
    const close = judged.find((j) => j.match === "uncertain")?.licence;
    // A near name (a sibling, a namesake, a typo) is for a person to judge: never a pass, and nothing about the licence is returned.
    if (close) {
      return {
        status: "review",
        data: { match: null, license: null },
        error: { code: "license_holder_uncertain", message: "The registry's name for this licence is close to, but not the same as, the verified name; a reviewer will compare them" },
        licence: close,
      };
    }
    return {
      status: "failed",
      data: { match: false, license: null },
      error: { code: "license_holder_mismatch", message: "The licence is registered to someone other than the verified person" },
    };
  }
  const licence = theirs.find((l) => l.status === "active") ?? theirs[0]!;
  const data = { match: true, license: { status: licence.status, expires_at: endOfDay(licence.expires_on)?.toISOString() ?? null } };
  if (licence.status === "active") return { status: "passed", data, error: null, licence };
  const error =
    licence.status === "expired"
      ? { code: "license_expired", message: `The licence expired${licence.expires_on ? ` on ${licence.expires_on}` : ""}; renew it and verify again` }
      : { code: "license_inactive", message: `The registry lists the licence as ${licence.status}` };
  return { status: "failed", data, error, licence };
}

const tooMany = (maxAttempts: number) =>
  new ApiError("too_many_attempts", { message: "No licence lookups left in this session", data: { max_attempts: maxAttempts } });

/**
 * Reserves one lookup under the session's row lock (table credential_lookups):
 * refused once the check passed (409) or max_attempts lookups were made (429),
 * however many run at once. Returns the reservation and how many came before it.
 */
async function reserveLookup(session: Session, maxAttempts: number): Promise<{ id: string; before: number }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockOpenSession(tx, session.id);
    const current = await tx.checkResult.findUnique({ where: { sessionId_type: { sessionId: session.id, type: "credential" } }, select: { status: true } });
    if (current?.status === "passed") throw new ApiError("credential_already_verified");
    const before = await tx.credentialLookup.count({ where: { sessionId: session.id } });
    if (before >= maxAttempts) throw tooMany(maxAttempts);
    const { id } = await tx.credentialLookup.create({ data: { sessionId: session.id }, select: { id: true } });
    return { id, before };
  });
}

/** A lookup the registry did not answer is given back: an outage does not use up the person's tries. */
async function releaseLookup(id: string) {
  const prisma = await db();
  await prisma.credentialLookup.deleteMany({ where: { id } });
}

export async function submitCredential(session: Session, body: CredentialBody, signal: AbortSignal = new AbortController().signal) {
  if (!session.features.includes("credential")) {
    throw new ApiError("invalid_request", { message: "This session has no licence step" });
  }
  const prisma = await db();
  const idCheck = await prisma.checkResult.findUnique({
    where: { sessionId_type: { sessionId: session.id, type: "id_verification" } },
    select: { status: true, data: true },
  });
  if (idCheck?.status !== "passed") throw new ApiError("kyc_required");
  const settings = credentialSettings(session);
  const entry = await findCatalogueEntry(body);
  if (!entry) {
    throw new ApiError("invalid_request", {
      message: "No such credential; GET /api/v2/flow/credential/states and .../providers list them",
      data: { errors: { credential_code: ["Unknown credential"] } },
    });
  }
  if (settings.license_types.length && !settings.license_types.some((t) => t.toLowerCase() === entry.credential_name.toLowerCase())) {
    throw new ApiError("invalid_request", {
      message: `This verification accepts only: ${settings.license_types.join(", ")}`,
      data: { errors: { license_type: [`Not accepted here: ${entry.credential_name}`] } },
    });
  }
  const inputs = validatedInputs(entry, body.fields);
  const person = await verifiedName(session, wasReused(idCheck.data));
  if (!person) throw new ApiError("kyc_required", { message: "The verified document's name is not available; verify the document again" });
  const reservation = await reserveLookup(session, settings.max_attempts);

  let outcome: Outcome;
  let evidence: Record<string, unknown> = { provider_code: entry.provider_code, credential_code: entry.credential_code };
  const started = Date.now();
  try {
    const found = await adapterFor(entry).lookup({ entry, inputs }, { signal });
    outcome = credentialVerdict(found, person, now().toISOString().slice(0, 10));
    evidence = { ...evidence, registry_results: found.length, registry_status: outcome.licence?.registry_status ?? null };
  } catch (err) {
    if (!(err instanceof RegistryUnavailableError)) throw err;
    outcome = {
      status: "review",
      data: { match: null, license: null },
      error: { code: "registry_unavailable", message: "The licence registry did not answer; try again, or continue and a reviewer will check the licence" },
    };
    evidence = { ...evidence, registry_error: err.reason, registry_message: err.message };
    await releaseLookup(reservation.id);
  }
  evidence.lookup_ms = Date.now() - started;
  const unanswered = outcome.error?.code === "registry_unavailable";

  // Kept for the proof (passed) or the reviewer (review); a failed lookup keeps nothing.
  const record: LicenceRecord | null =
    outcome.status === "failed"
      ? null
      : {
          licence: outcome.licence ?? null,
          lookup: { provider_code: entry.provider_code, credential_code: entry.credential_code, inputs },
          verified_holder: person,
          looked_up_at: new Date(started).toISOString(),
        };
  const data = { ...outcome.data, license_type: entry.credential_name, state: entry.state_code, provider_code: entry.provider_code, credential_code: entry.credential_code };
  await recordCheckResult({
    sessionId: session.id,
    type: "credential",
    status: outcome.status,
    data,
    error: outcome.error,
    evidence,
    // A lookup the registry could not answer did not run: never billed (a later answered try is).
    billable: !unanswered,
    // A lookup that ran alongside one that passed never replaces it.
    keepPassed: "credential_already_verified",
    artifacts: { licence_record: record },
  });
  const attemptsLeft = Math.max(0, settings.max_attempts - reservation.before - (unanswered ? 0 : 1));
  return { checks: [{ type: "credential" as const, status: outcome.status, data, error: outcome.error }], attempts_left: attemptsLeft };
}

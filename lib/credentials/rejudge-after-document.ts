import type { Session } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { loadJsonArtifact } from "@/lib/artifacts/artifacts";
import { recordCheckResult } from "@/lib/sessions/record-check";
import { holderNameMatch } from "@/lib/licence-registries/holder-name";
import type { LicenceRecord } from "@/lib/licence-registries/types";
import type { HolderName } from "@/lib/licence-registries/types";

/**
 * A document retaken after the licence step: the licence was matched
 * against the earlier document's name, so unless it is the same person's
 * name exactly, the credential check no longer stands. It becomes failed
 * (`license_holder_mismatch`, the kept licence dropped) and the person looks
 * it up again; otherwise someone could verify another person's document and
 * licence, then retake the document with their own.
 */
export async function rejudgeLicenceAfterDocument(session: Pick<Session, "id" | "features">, verified: HolderName): Promise<void> {
  if (!session.features.includes("credential")) return;
  const prisma = await db();
  const result = await prisma.checkResult.findUnique({
    where: { sessionId_type: { sessionId: session.id, type: "credential" } },
    select: { status: true, data: true },
  });
  if (!result || result.status === "failed") return;
  const record = await loadJsonArtifact<LicenceRecord>(session.id, "licence_record");
  if (!record?.licence) return; // nothing matched yet (the registry did not answer): the next lookup uses the new name
  if (result.status === "passed" && holderNameMatch(record.licence.holder, verified) === "same") return;
  const data = result.data as Record<string, unknown>;
  await recordCheckResult({
    sessionId: session.id,
    type: "credential",
    status: "failed",
    data: { match: false, license: null, license_type: data.license_type, state: data.state, provider_code: data.provider_code, credential_code: data.credential_code },
    error: { code: "license_holder_mismatch", message: "The identity document changed after the licence was checked: check the licence again" },
    evidence: { rejudged_after: "id_verification" },
    artifacts: { licence_record: null },
  });
}

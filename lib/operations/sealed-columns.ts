import { lastNameKey, licenceNumberKey } from "@/lib/licence-registries/registry-index";
import type { RegistryRow } from "@/lib/licence-registries/import/registry-row";
import { licenceProofKey, type LicenceProof } from "@/lib/identity/proofs";

/**
 * Every place the database keeps a value sealed with lib/crypto/encryption.ts:
 * the one list `svc keys:rotate` walks (lib/operations/rotate-keys.ts). A new
 * sealed column is added here; tests/unit/key-rotation.test.ts fails when
 * prisma/schema.prisma has a column that looks sealed (a `Bytes` column, or
 * a name with "sealed" or "encrypted") that is neither here nor in
 * NOT_SEALED.
 */
export type SealedColumn = {
  table: string;
  /** The column that holds the sealed value (for `json`: the JSON column holding sealed strings in `jsonFields`). */
  column: string;
  /** Primary key column, and its SQL type (keyset pages and the update's WHERE). */
  id: string;
  idType: "text" | "uuid" | "bigint";
  /** `string`: encryptString; `bytes`: sealBytes/sealJson; `json`: encryptString values inside a JSON object. */
  format: "string" | "bytes" | "json";
  jsonFields?: readonly string[];
  /** Extra SQL condition: only these rows hold sealed values worth re-sealing. */
  where?: string;
  /** Other columns read for `rekey`. */
  extraColumns?: readonly string[];
  /** Keyed hashes stored beside the value, made again under the current key from the opened value (column -> value). */
  rekey?: (plain: Buffer, row: Record<string, unknown>) => Record<string, string>;
  /** When the keyed hash made again is already taken (a unique index): `delete-older` drops the row being re-sealed, the newer one stands. */
  onDuplicateKey?: "delete-older";
  /** At most this many rows per batch (big values, such as images). */
  maxBatch?: number;
  /** Not a Prisma model (pg-boss's own table): may be missing, and is not in prisma/schema.prisma. */
  external?: boolean;
};

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: "webhook_endpoints", column: "secret_encrypted", id: "id", idType: "text", format: "string" },
  // The secret a roll replaced, while it still signs (lib/tenancy/webhook-endpoints.ts).
  { table: "webhook_endpoints", column: "previous_secret_encrypted", id: "id", idType: "text", format: "string", where: "previous_secret_encrypted IS NOT NULL" },
  { table: "oidc_signing_keys", column: "private_jwk_encrypted", id: "kid", idType: "text", format: "string" },
  { table: "idempotency_records", column: "response_body", id: "id", idType: "text", format: "string" },
  { table: "session_artifacts", column: "sealed", id: "id", idType: "text", format: "bytes", maxBatch: 20 },
  {
    table: "account_proofs",
    column: "sealed",
    id: "id",
    idType: "text",
    format: "bytes",
    extraColumns: ["kind"],
    // The same licence proven again under the new key before the rotation ran (lib/identity/proofs.ts).
    onDuplicateKey: "delete-older",
    // A licence proof's key is a keyed hash of the licence (lib/identity/proofs.ts licenceProofKey).
    rekey: (plain, row): Record<string, string> =>
      row.kind === "licence" ? { key: licenceProofKey(JSON.parse(plain.toString("utf8")) as LicenceProof) } : {},
  },
  {
    table: "registry_licences",
    column: "sealed",
    id: "id",
    idType: "bigint",
    format: "bytes",
    // Its index keys (lib/licence-registries/registry-index.ts): no re-import needed after a rotation.
    rekey: (plain) => {
      const row = JSON.parse(plain.toString("utf8")) as RegistryRow;
      return { number_key: licenceNumberKey(row.license_number), last_name_key: lastNameKey(row.last_name) };
    },
  },
  { table: "key_material", column: "sealed", id: "purpose", idType: "text", format: "bytes" },
  // The 1:N gallery (lib/faces/sealed-faces.ts): each face's template and its search code. A re-sealed
  // code is logged to face_index_changes by the trigger, so every instance's index reloads that face.
  { table: "face_identities", column: "template_sealed", id: "id", idType: "text", format: "bytes" },
  { table: "face_identities", column: "search_code", id: "id", idType: "text", format: "bytes" },
  // A location check's fix (lib/sessions/location-fix.ts): the person's coordinates inside the check's data.
  { table: "check_results", column: "data", id: "id", idType: "text", format: "json", jsonFields: ["fix_sealed"], where: "type = 'location'" },
  {
    // Queued invitation and recovery emails carry their link sealed (lib/org/invitations.ts, lib/org/recovery/recovery-email.ts).
    table: "pgboss.job",
    column: "data",
    id: "id",
    idType: "uuid",
    format: "json",
    jsonFields: ["token_sealed", "url_sealed"],
    where: "state IN ('created', 'retry', 'active')",
    external: true,
  },
];

/** Columns that look sealed by the rule above but are not, and why (none today). */
export const NOT_SEALED: Readonly<Record<string, string>> = {};

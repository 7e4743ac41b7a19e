import type pg from "pg";
import { sqlPool } from "@/lib/db/client";
import { logger } from "@/lib/log/logger";
import { decryptString, encryptString, openBytes, sealBytes, SEALED_BYTES_MAGIC } from "@/lib/crypto/encryption";
import { keyring } from "@/lib/crypto/encryption-key";
import { keyIdOf } from "@/lib/config/key-format";
import { SEALED_COLUMNS, type SealedColumn } from "./sealed-columns";
import { captureStableSecrets } from "@/lib/crypto/stable-secrets";

/**
 * `svc keys:rotate` (docs/operations.md "Rotating the encryption key"): re-seals under
 * the current ENCRYPTION_KEY every value of SEALED_COLUMNS sealed under
 * another key (or before key ids), and makes the keyed hashes stored beside
 * them again. Batches of `batchSize` rows, one transaction each, walked by
 * primary key; only rows not yet under the current key are read, so a second
 * run re-seals nothing and an interrupted run resumes where it stopped.
 * Each row is written only if it still holds the value read (the app may
 * rewrite it meanwhile, under the current key).
 */
/** `superseded`: rows dropped because a newer row for the same thing was already saved under the new key (onDuplicateKey). */
export type ColumnCount = { resealed: number; superseded: number; unreadable: number };
export type RotationReport = { key_id: string; previous_key_ids: string[]; resealed: number; columns: Record<string, ColumnCount> };

export class KeyRotationError extends Error {}

export const DEFAULT_BATCH_SIZE = 500;

const q = (name: string) => name.split(".").map((p) => `"${p}"`).join(".");

/** SQL that is true for a sealed string not under the current key (`$1`: the LIKE pattern `v2.<kid>.%`). */
const stringNeedsRotation = (expr: string) => `(${expr} LIKE 'v1.%' OR (${expr} LIKE 'v2.%' AND ${expr} NOT LIKE $1))`;

/** The condition of rows not yet under the current key, and its parameter `$1`. */
function needsRotation(col: SealedColumn, currentId: string): { sql: string; param: string } {
  const c = q(col.column);
  if (col.format === "bytes") {
    const header = Buffer.concat([SEALED_BYTES_MAGIC, Buffer.from(currentId, "hex")]);
    return { sql: `${c} IS NOT NULL AND substring(${c} from 1 for ${header.length}) <> decode($1, 'hex')`, param: header.toString("hex") };
  }
  const param = `v2.${currentId}.%`;
  if (col.format === "string") return { sql: stringNeedsRotation(c), param };
  return { sql: `(${(col.jsonFields ?? []).map((f) => stringNeedsRotation(`${c}->>'${f}'`)).join(" OR ")})`, param };
}

/** The value re-sealed under the current key, and the keyed hashes to store with it. */
function reseal(col: SealedColumn, row: Record<string, unknown>): { value: unknown; rekeyed: Record<string, string> } {
  const value = row.value;
  if (col.format === "string") {
    const plain = decryptString(value as string);
    return { value: encryptString(plain), rekeyed: col.rekey?.(Buffer.from(plain, "utf8"), row) ?? {} };
  }
  if (col.format === "bytes") {
    const plain = openBytes(value as Buffer);
    return { value: Buffer.from(sealBytes(plain)), rekeyed: col.rekey?.(plain, row) ?? {} };
  }
  const object = { ...(value as Record<string, unknown>) };
  for (const f of col.jsonFields ?? []) {
    if (typeof object[f] === "string" && /^v[12]\./.test(object[f])) object[f] = encryptString(decryptString(object[f]));
  }
  return { value: JSON.stringify(object), rekeyed: {} };
}

async function tableExists(pool: pg.Pool, table: string): Promise<boolean> {
  const { rows } = await pool.query<{ present: boolean }>("SELECT to_regclass($1) IS NOT NULL AS present", [q(table)]);
  return rows[0]!.present;
}

async function rotateColumn(pool: pg.Pool, col: SealedColumn, batchSize: number): Promise<ColumnCount> {
  const count: ColumnCount = { resealed: 0, superseded: 0, unreadable: 0 };
  if (col.external && !(await tableExists(pool, col.table))) return count;
  const pending = needsRotation(col, keyring().currentId);
  const id = q(col.id);
  const extra = (col.extraColumns ?? []).map((c) => `, ${q(c)}`).join("");
  const limit = Math.min(batchSize, col.maxBatch ?? batchSize);
  const valueCompare = col.format === "json" ? `${q(col.column)} = $3::jsonb` : `${q(col.column)} = $3`;
  let after: string | null = null;
  for (;;) {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      // Ordered by the column itself (a bigint key must not page in text order).
      const { rows }: { rows: Array<Record<string, unknown> & { row_id: string }> } = await client.query(
        `SELECT ${id}::text AS row_id, ${q(col.column)} AS value${extra} FROM ${q(col.table)}
          WHERE ${col.where ? `(${col.where}) AND ` : ""}${pending.sql} ${after === null ? "" : `AND ${id} > $2::${col.idType}`}
          ORDER BY ${id} LIMIT ${limit}`,
        after === null ? [pending.param] : [pending.param, after],
      );
      for (const row of rows) {
        let next: ReturnType<typeof reseal>;
        try {
          next = reseal(col, row);
        } catch (err) {
          count.unreadable++;
          logger.error("keys:rotate could not open a sealed value", { table: col.table, column: col.column, id: row.row_id, error: (err as Error).message });
          continue;
        }
        const sets = Object.keys(next.rekeyed).map((c, i) => `, ${q(c)} = $${i + 4}`).join("");
        const old = col.format === "json" ? JSON.stringify(row.value) : row.value;
        if (col.onDuplicateKey) await client.query("SAVEPOINT reseal");
        try {
          const updated = await client.query(
            `UPDATE ${q(col.table)} SET ${q(col.column)} = $1${col.format === "json" ? "::jsonb" : ""}${sets} WHERE ${id} = $2::${col.idType} AND ${valueCompare}`,
            [next.value, row.row_id, old, ...Object.values(next.rekeyed)],
          );
          count.resealed += updated.rowCount ?? 0;
        } catch (err) {
          // Its keyed hash, made again, is already taken by a row saved under the new key since: that newer row stands.
          if ((err as { code?: string }).code !== "23505" || col.onDuplicateKey !== "delete-older") throw err;
          await client.query("ROLLBACK TO SAVEPOINT reseal");
          const deleted = await client.query(`DELETE FROM ${q(col.table)} WHERE ${id} = $1::${col.idType} AND ${valueCompare.replace("$3", "$2")}`, [row.row_id, old]);
          count.superseded += deleted.rowCount ?? 0;
        }
      }
      await client.query("COMMIT");
      if (rows.length < limit) return count;
      after = rows.at(-1)!.row_id;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }
}

/**
 * Runs the rotation. Refuses unless ENCRYPTION_KEY_PREVIOUS names the keys
 * being replaced: without them nothing sealed under them could be opened.
 */
export async function rotateEncryptionKey(options: { batchSize?: number } = {}): Promise<RotationReport> {
  const ring = keyring();
  if (ring.previous.length === 0) {
    throw new KeyRotationError(
      "keys:rotate needs the new key in ENCRYPTION_KEY and the key(s) it replaces in ENCRYPTION_KEY_PREVIOUS (docs/operations.md \"Rotating the encryption key\")",
    );
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  // The pseudonym key is captured from the old key before anything is re-sealed (lib/crypto/stable-secrets.ts).
  await captureStableSecrets();
  const pool = await sqlPool();
  const columns: Record<string, ColumnCount> = {};
  for (const col of SEALED_COLUMNS) columns[`${col.table}.${col.column}`] = await rotateColumn(pool, col, batchSize);
  const unreadable = Object.entries(columns).filter(([, c]) => c.unreadable > 0);
  if (unreadable.length) {
    throw new KeyRotationError(
      `Some sealed values open under no configured key and were left as they are: ${unreadable.map(([name, c]) => `${name} ${c.unreadable}`).join(", ")}. ` +
        "Add the key they were sealed with to ENCRYPTION_KEY_PREVIOUS and run keys:rotate again.",
    );
  }
  return {
    key_id: ring.currentId,
    previous_key_ids: ring.previous.map(keyIdOf),
    resealed: Object.values(columns).reduce((n, c) => n + c.resealed, 0),
    columns,
  };
}

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { PgliteWireServer } from "@/lib/db/pglite-wire-server";

/** The embedded database's multiplexer keeps concurrent clients' queries and transactions whole. */
let db: PGlite;
let server: PgliteWireServer;
let url: string;

beforeAll(async () => {
  db = await PGlite.create();
  server = new PgliteWireServer(db);
  url = `postgresql://postgres:postgres@127.0.0.1:${await server.listen()}/postgres?sslmode=disable`;
});
afterAll(async () => {
  await server.close();
  await db.close();
});

describe("PgliteWireServer", () => {
  it("answers many concurrent parameterised queries each with its own result", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 6 });
    try {
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) => pool.query<{ v: number }>("SELECT $1::int * 2 AS v", [i])),
      );
      expect(results.map((r) => r.rows[0]!.v)).toEqual(Array.from({ length: 60 }, (_, i) => i * 2));
    } finally {
      await pool.end();
    }
  });

  it("isolates concurrent transactions (read-modify-write never loses an update)", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 5 });
    try {
      await pool.query("CREATE TABLE counter (id int PRIMARY KEY, n int)");
      await pool.query("INSERT INTO counter VALUES (1, 0)");
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const client = await pool.connect();
          try {
            await client.query("BEGIN");
            const { rows } = await client.query<{ n: number }>("SELECT n FROM counter WHERE id = $1 FOR UPDATE", [1]);
            await new Promise((r) => setTimeout(r, 2));
            await client.query("UPDATE counter SET n = $1 WHERE id = 1", [rows[0]!.n + 1]);
            await client.query("COMMIT");
          } finally {
            client.release();
          }
        }),
      );
      expect((await pool.query("SELECT n FROM counter")).rows[0].n).toBe(20);
    } finally {
      await pool.end();
    }
  });

  it("rolls back the transaction of a client that disconnects mid-way, and serves the others", async () => {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query("CREATE TABLE notes (body text)");
    const quitter = new pg.Client({ connectionString: url });
    quitter.on("error", () => {});
    await quitter.connect();
    await quitter.query("BEGIN");
    await quitter.query("INSERT INTO notes VALUES ('never committed')");
    const waiting = setup.query("INSERT INTO notes VALUES ('committed')");
    (quitter as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    await waiting;
    expect((await setup.query("SELECT body FROM notes")).rows).toEqual([{ body: "committed" }]);
    await setup.end();
  });
});

import http from "node:http";
import net from "node:net";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@/lib/db/outage";
import { ClientClosedRequest } from "@/lib/http/core/request";

/** Which errors the HTTP core answers 503 (retry) rather than 500 (a defect). */
describe("isDatabaseUnavailable", () => {
  it("recognises a cut connection, a refused one and a database restarting, also wrapped as a cause", () => {
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("the database system is starting up"), { code: "57P03" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("query failed", { cause: Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }) }))).toBe(true);
  });

  it("leaves every other error a 500: a bug, a constraint, a bad query", () => {
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("Unique constraint failed"), { code: "P2002" }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('relation "x" does not exist'), { code: "42P01" }))).toBe(false);
    expect(isDatabaseUnavailable("Connection terminated")).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

/** Errors made by the real thing: Node's HTTP server for a client that went away, pg for a database that did. */
function clientAbortError(): Promise<Error> {
  return new Promise((resolve, reject) => {
    let client: net.Socket;
    const server = http.createServer((req) => {
      req.on("error", (err) => {
        server.close();
        resolve(err);
      });
      req.on("end", () => reject(new Error("the body arrived after all")));
      req.resume();
      // The client leaves halfway through its declared body.
      client.destroy();
    });
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      client = net.connect(port, "127.0.0.1", () => client.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"half\":"));
    });
  });
}

/** A pg client's error against a server that resets the connection (a database process killed) or a closed port (a database down). */
async function pgConnectionError(kind: "reset" | "refused"): Promise<Error> {
  const server = net.createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  if (kind === "refused") await new Promise((resolve) => server.close(resolve));
  const client = new pg.Client({ host: "127.0.0.1", port, user: "x", database: "x", connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    throw new Error("connected");
  } catch (err) {
    return err as Error;
  } finally {
    server.close();
  }
}

describe("a client's closed request is not a database outage", () => {
  it("Node's abort error of a request body (ECONNRESET of the client's socket) is not an outage, wrapped or not", async () => {
    const aborted = await clientAbortError();
    expect(aborted).toMatchObject({ message: "aborted", code: "ECONNRESET" });
    expect(isDatabaseUnavailable(aborted)).toBe(false);
    expect(isDatabaseUnavailable(new ClientClosedRequest(aborted))).toBe(false);
  });

  it("pg's errors for a reset connection and a refused one are outages", async () => {
    const reset = await pgConnectionError("reset");
    const refused = await pgConnectionError("refused");
    expect(refused).toMatchObject({ code: "ECONNREFUSED", syscall: "connect" });
    expect(isDatabaseUnavailable(reset)).toBe(true);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    // Also as the cause of the error Prisma's adapter throws.
    expect(isDatabaseUnavailable(new Error("driver adapter error", { cause: reset }))).toBe(true);
  });
});

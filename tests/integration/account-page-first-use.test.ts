import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { startServer, type RunningServer } from "../support/server";

/**
 * The account page's first-party client is made on first use
 * (lib/account-page/account-page-app.ts). On a new install, people
 * opening /account/sign-in at the same moment all get the sign-in redirect:
 * the second maker of the client finds the first one's (found by the route
 * fuzz on a fresh PostgreSQL database: a unique violation answered 500).
 */
let database: TestDatabase;
let server: RunningServer;
beforeAll(async () => {
  database = await createTestDatabase("account-first-use");
  server = await startServer({ ...database.env, ENCRYPTION_KEY: randomBytes(32).toString("hex") });
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

it("eight first requests to /account/sign-in at once are all redirected to sign in, with one client made", async () => {
  const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(`${server.url}/account/sign-in`, { redirect: "manual" })));
  expect(answers.map((res) => res.status)).toEqual(Array(8).fill(answers[0]!.status));
  expect(answers[0]!.status).toBeGreaterThanOrEqual(300);
  expect(answers[0]!.status).toBeLessThan(400);
  const clients = new Set(answers.map((res) => new URL(res.headers.get("location")!).searchParams.get("client_id")));
  expect(clients.size).toBe(1);
});

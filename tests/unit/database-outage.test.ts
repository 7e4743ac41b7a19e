import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@/lib/db/outage";

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

import { readFileSync } from "node:fs";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/openapi/document";
import { ERROR_CATALOGUE } from "@/lib/http/error-catalogue";
import { assertMatchesContract, ContractViolation } from "../support/contract";
import { redoclyProblems, swaggerParserErrors } from "../support/openapi-lint";
import { SDK_DOCUMENT_PATH, SDK_TYPES_PATH, sdkSchemaTypes, serializedDocument } from "../../scripts/sdk-artifacts";

/**
 * The OpenAPI document (lib/openapi/) is valid OpenAPI 3.1 and its outside
 * checks pass; that every public route is served from its documented
 * operation is tests/unit/route-contracts.test.ts.
 */

describe("OpenAPI document", () => {
  const doc = openApiDocument();

  it("is valid OpenAPI 3.1", async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    const ids = Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("passes @apidevtools/swagger-parser's validate() and Redocly's recommended rules (the written sdk/openapi.json)", async () => {
    const text = readFileSync(SDK_DOCUMENT_PATH, "utf8");
    expect(text).toBe(serializedDocument(doc));
    expect(await swaggerParserErrors(JSON.parse(text))).toBeNull();
    expect(await redoclyProblems(text)).toEqual([]);
  });

  it("the outside checks refuse a licence without url or SPDX identifier, and an operation without a declared security", async () => {
    const broken = structuredClone(doc) as Record<string, any>;
    broken.info.license = { name: "See the repository's licence" };
    delete broken.webhooks.verificationEvent.post.security;
    expect(await swaggerParserErrors(broken)).toMatch(/info\/license/);
    const problems = await redoclyProblems(JSON.stringify(broken, null, 2));
    expect(problems.some((p) => p.startsWith("warn info-license-strict"))).toBe(true);
    expect(problems.some((p) => p.startsWith("error security-defined") && p.includes("#/webhooks/verificationEvent/post"))).toBe(true);
  });

  it("uses only catalogued error codes, each at a status the catalogue allows", () => {
    const wrong: string[] = [];
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(item as Record<string, { responses: Record<string, any> }>)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const codes: string[] = response.content?.["application/json"]?.schema?.properties?.error?.properties?.code?.enum ?? [];
          for (const code of codes) {
            const entry = (ERROR_CATALOGUE as Record<string, { status: number; also?: readonly number[] }>)[code];
            if (!entry || ![entry.status, ...(entry.also ?? [])].includes(Number(status))) wrong.push(`${method} ${p} ${status} ${code}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("declares the webhook delivery with its signature headers", () => {
    const delivery = (doc.webhooks as Record<string, any>).verificationEvent.post;
    const headers = delivery.parameters.filter((p: { in: string }) => p.in === "header").map((p: { name: string }) => p.name);
    expect(headers.sort()).toEqual(["X-Svc-Event-Id", "X-Svc-Signature", "X-Svc-Timestamp"]);
  });

  it("is the one the SDK ships, with types generated from it (else: npm run openapi:write)", async () => {
    expect(readFileSync(SDK_DOCUMENT_PATH, "utf8")).toBe(serializedDocument(doc));
    expect(readFileSync(SDK_TYPES_PATH, "utf8")).toBe(await sdkSchemaTypes(doc));
  });

  it("the suite's contract check refuses an undeclared status, a missing request id and a body off the schema, and passes a true one", () => {
    const headers = (extra: Record<string, string> = {}) => new Headers({ "x-request-id": "req_1", "content-type": "application/json", ...extra });
    const answer = (status: number, body: unknown, h = headers()) => ({ status, headers: h, body, text: JSON.stringify(body) });
    const ok = { success: true, data: { workflows: [] } };
    expect(() => assertMatchesContract("GET", "http://x/api/v2/workflows", answer(200, ok))).not.toThrow();
    expect(() => assertMatchesContract("GET", "http://x/api/v2/workflows", answer(418, ok))).toThrow(ContractViolation);
    expect(() => assertMatchesContract("GET", "http://x/api/v2/workflows", answer(200, ok, new Headers({ "content-type": "application/json" })))).toThrow(/X-Request-Id/);
    expect(() => assertMatchesContract("GET", "http://x/api/v2/workflows", answer(200, { success: true, data: { workflows: [], extra: 1 } }))).toThrow(ContractViolation);
    const unknownCode = { success: false, data: [], error: { code: "made_up", message: "x" } };
    expect(() => assertMatchesContract("GET", "http://x/api/v2/workflows", answer(401, unknownCode))).toThrow(ContractViolation);
    expect(() => assertMatchesContract("GET", "http://x/not/documented", answer(418, ok))).not.toThrow();
  });
});

import fc from "fast-check";

/**
 * Hostile requests generated from the OpenAPI document (sdk/openapi.json):
 * for every documented operation, its path parameters, query parameters,
 * headers and body are filled from a schema-shaped skeleton with one part
 * replaced by something an attacker or a broken client sends (wrong types,
 * huge and negative numbers, NUL and unpaired surrogates, ids that are not
 * ids, deep nesting, malformed JSON, wrong content types, bodies at and over
 * the limit). fast-check draws them from a seed, so a failure is reproduced
 * with FUZZ_SEED. Used by tests/integration/fuzz.test.ts and `npm run soak`.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
};
type Parameter = { name: string; in: "path" | "query" | "header"; schema?: Schema };
export type FuzzOperation = {
  method: string;
  path: string;
  definition: { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema?: Schema }> } } & Record<string, unknown>;
};
type Doc = Record<string, unknown>;
const schemasOf = (doc: Doc) => (doc.components as { schemas?: Record<string, Schema> } | undefined)?.schemas;

export type FuzzRequest = {
  /** What was tried, to reproduce a failure by reading it. */
  label: string;
  method: string;
  /** Path and query, to append to the server's base URL. */
  url: string;
  headers: Record<string, string>;
  body?: string | FormData;
};

/** Strings no field expects: control and format characters, NUL, unpaired surrogates, scripts, huge ones. */
const EDGE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff x",
  "\u202e\u0635\u0644",
  "\ufeff",
  "😀".repeat(300),
  "a".repeat(10_001),
  "<script>alert(1)</script>",
  "' OR '1'='1' --",
  "${jndi:ldap://x}",
  "../../../../etc/passwd",
  "%00",
  "-1",
  "1e309",
  "NaN",
  "null",
  "2026-02-30",
  "00000000-0000-0000-0000-000000000000",
  "ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ",
];
/** Values of the wrong type or out of every range. */
const EDGE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  -0.5,
  1.5,
  2 ** 53 + 1,
  -(2 ** 63),
  1e308,
  -1e308,
  [],
  [null],
  {},
  { $gt: "" },
  JSON.parse('{"__proto__":{"admin":true}}'),
  [[[[[]]]]],
];
/** Path segments that are not ids (already URL-encoded where they must be). */
const EDGE_IDS = [
  "-1",
  "0",
  "99999999999999999999999",
  "1e309",
  "NaN",
  "%00",
  "%ED%A0%80",
  "%C0%AF",
  "..%2F..%2Fetc%2Fpasswd",
  "%F0%9F%98%80",
  "a".repeat(5000),
  "00000000-0000-0000-0000-000000000000",
  "00000000-0000-4000-8000-00000000000g",
  "%27%20OR%20%271%27%3D%271",
  "%20",
];

const jsonish = fc.oneof(
  fc.constantFrom(...EDGE_STRINGS),
  fc.constantFrom(...EDGE_VALUES),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.double(),
  fc.integer(),
  fc.jsonValue({ maxDepth: 3 }),
);

function resolve(doc: Doc, schema: Schema | undefined): Schema {
  if (!schema?.$ref) return schema ?? {};
  const name = schema.$ref.replace("#/components/schemas/", "");
  return resolve(doc, schemasOf(doc)?.[name]);
}

/** A value of the right shape (first enum value, in-range number, pattern-free string): the skeleton a mutation is applied to. */
function plausible(doc: Doc, raw: Schema | undefined, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (variant) return plausible(doc, variant, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    if (depth > 4) return {};
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(doc, v, depth + 1)]));
  }
  if (type === "array") return depth > 4 ? [] : [plausible(doc, schema.items, depth + 1)];
  if (type === "integer" || type === "number") return schema.minimum ?? 1;
  if (type === "boolean") return true;
  if (schema.format === "uuid" || schema.pattern?.includes("[0-9a-f]{8}")) return "00000000-0000-4000-8000-000000000000";
  if (schema.format === "uri") return "https://example.com/x";
  if (schema.format === "email") return "fuzz@example.com";
  return "x".repeat(Math.max(1, schema.minLength ?? 1));
}

/** Every path into an object/array value, to pick one to replace. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== "object") return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

function replaceAt(value: unknown, at: string[], replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...(value as Record<string, unknown>) };
  copy[at[0]!] = replaceAt(copy[at[0]!], at.slice(1), replacement);
  return copy;
}

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** Malformed or hostile JSON texts, and one body at and one over the 1 MB limit. */
const RAW_BODIES: Array<{ label: string; text: () => string }> = [
  { label: "empty body", text: () => "" },
  { label: "truncated JSON", text: () => '{"workflow_id": "' },
  { label: "trailing comma", text: () => '{"a":1,}' },
  { label: "single quotes", text: () => "{'a':1}" },
  { label: "BOM before JSON", text: () => "\ufeff{}" },
  { label: "raw NUL in JSON", text: () => '{"a":"\u0000"}' },
  { label: "escaped NUL in JSON", text: () => '{"a":"\\u0000"}' },
  { label: "unpaired surrogate escape", text: () => '{"a":"\\ud800"}' },
  { label: "NUL in a key", text: () => '{"\\u0000":1}' },
  { label: "nesting 33 deep", text: () => `{"a":${nested(33)}}` },
  { label: "nesting 100,000 deep", text: () => nested(100_000) },
  { label: "JSON null", text: () => "null" },
  { label: "JSON array", text: () => "[1,2,3]" },
  { label: "JSON string", text: () => '"x"' },
  { label: "huge number", text: () => `{"a":${"9".repeat(400)}}` },
  { label: "duplicate keys", text: () => '{"a":1,"a":{"b":2}}' },
  { label: "__proto__ key", text: () => '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}' },
  { label: "body just under 1 MB", text: () => JSON.stringify({ pad: "x".repeat(1_048_576 - 20) }) },
  { label: "body over 1 MB", text: () => JSON.stringify({ pad: "x".repeat(1_048_576 + 10) }) },
];
const CONTENT_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/json; charset=utf-16", "application/json\u0000", ""];

export type FuzzTarget = {
  op: FuzzOperation;
  /** Headers that authenticate the caller for this operation (a production tenant's). */
  credentials: Record<string, string>;
  /** A real value for a path parameter of this operation's path, when the tenant has one. */
  realId(name: string, path: string): string | undefined;
};

/**
 * `count` hostile requests for one operation, drawn from `seed`.
 */
export function fuzzRequests(doc: Doc, target: FuzzTarget, seed: number, count: number): FuzzRequest[] {
  const { op } = target;
  const params = op.definition.parameters ?? [];
  const content = op.definition.requestBody?.content ?? {};
  const bodyType = Object.keys(content)[0];
  const skeleton = bodyType ? plausible(doc, content[bodyType]!.schema) : undefined;
  const bodyPaths = skeleton === undefined ? [] : pathsOf(skeleton);

  const strategy = fc.constantFrom(...(["path", "query", "header", "field", "field", "field", "raw", "content-type", "credentials"] as const));
  const plan = fc.record({
    strategy,
    value: jsonish,
    id: fc.constantFrom(...EDGE_IDS),
    raw: fc.constantFrom(...RAW_BODIES),
    contentType: fc.constantFrom(...CONTENT_TYPES),
    pick: fc.nat(),
    text: fc.oneof(fc.constantFrom(...EDGE_STRINGS), fc.string({ unit: "binary", maxLength: 60 })),
  });

  return fc.sample(plan, { seed, numRuns: count }).map((p) => {
    const label: string[] = [`${op.method} ${op.path}`, p.strategy];
    const pathParams = params.filter((x) => x.in === "path");
    const fuzzedParam = pathParams.length ? pathParams[p.pick % pathParams.length]!.name : undefined;
    let url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (p.strategy === "path" && name === fuzzedParam) {
        label.push(`${name}=${p.id.slice(0, 40)}`);
        return p.id;
      }
      return encodeURIComponent(target.realId(name, op.path) ?? (name === "state" ? "CA" : "00000000-0000-4000-8000-000000000000"));
    });
    const query = new URLSearchParams();
    const queryParams = params.filter((x) => x.in === "query");
    if (p.strategy === "query") {
      const name = queryParams.length ? queryParams[p.pick % queryParams.length]!.name : "unexpected";
      const value = typeof p.value === "string" ? p.value : JSON.stringify(p.value) ?? "";
      query.append(name, value);
      if (p.pick % 2) query.append(name, p.text);
      label.push(`${name}=${value.slice(0, 40)}`);
    }
    if ([...query].length) url += `?${query}`;

    const headers: Record<string, string> = { ...target.credentials };
    if (p.strategy === "credentials") {
      const replaced = Object.keys(headers)[p.pick % Math.max(1, Object.keys(headers).length)] ?? "authorization";
      headers[replaced] = `Bearer ${p.text}`.replace(/[\r\n]/g, " ");
      label.push(`${replaced} replaced`);
    }
    if (p.strategy === "header") {
      headers["idempotency-key"] = p.text;
      label.push("Idempotency-Key hostile");
    }
    if (op.method === "GET" || op.method === "DELETE") {
      if (p.strategy === "raw" || p.strategy === "content-type" || p.strategy === "field") {
        headers["content-type"] = "application/json";
        return { label: [...label, "body on a GET/DELETE"].join(" | "), method: op.method, url, headers: sanitiseHeaders(headers), body: op.method === "DELETE" ? p.raw.text().slice(0, 2000) : undefined };
      }
      return { label: label.join(" | "), method: op.method, url, headers: sanitiseHeaders(headers) };
    }

    let body: string | FormData | undefined;
    if (bodyType === "multipart/form-data") {
      const form = new FormData();
      const properties = resolve(doc, content[bodyType]!.schema).properties ?? {};
      for (const [name, schema] of Object.entries(properties)) {
        const isFile = resolve(doc, schema).format === "binary" || resolve(doc, resolve(doc, schema).items).format === "binary";
        if (isFile) form.append(name, new Blob([p.strategy === "field" ? new TextEncoder().encode(p.text) : new Uint8Array(p.pick % 64)]), "x.jpg");
        else form.append(name, p.strategy === "field" ? p.text : String(plausible(doc, schema)));
      }
      body = form;
      label.push("multipart");
    } else if (bodyType === "application/x-www-form-urlencoded") {
      const form = new URLSearchParams();
      const properties = resolve(doc, content[bodyType]!.schema).properties ?? {};
      const names = Object.keys(properties);
      names.forEach((name, i) => form.append(name, p.strategy === "field" && i === p.pick % names.length ? p.text : String(plausible(doc, properties[name]))));
      headers["content-type"] = bodyType;
      body = form.toString();
    } else {
      headers["content-type"] = "application/json";
      let value: unknown = skeleton ?? {};
      if (p.strategy === "field" && bodyPaths.length) {
        const at = bodyPaths[p.pick % bodyPaths.length]!;
        value = replaceAt(value, at, p.value);
        label.push(`${at.join(".") || "(body)"}=${String(JSON.stringify(p.value)).slice(0, 40)}`);
      }
      body = JSON.stringify(value);
    }
    if (p.strategy === "raw") {
      body = p.raw.text();
      headers["content-type"] = bodyType === "multipart/form-data" ? "multipart/form-data; boundary=broken" : (bodyType ?? "application/json");
      label.push(p.raw.label);
    }
    if (p.strategy === "content-type") {
      if (body instanceof FormData) body = "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--x--";
      if (p.contentType) headers["content-type"] = p.contentType;
      else delete headers["content-type"];
      label.push(`content-type=${JSON.stringify(p.contentType)}`);
    }
    return { label: label.join(" | "), method: op.method, url, headers: sanitiseHeaders(headers), body };
  });
}

/**
 * fetch refuses header values with control characters and code points over
 * 255 (HTTP cannot carry them): control characters become spaces, the rest
 * is sent as its UTF-8 bytes read as Latin-1, which is what a raw client sends.
 */
function sanitiseHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Buffer.from(v.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, " "), "utf8").toString("latin1").trim()]),
  );
}

/** A stack frame, a source path, a database or driver name, a connection string. */
const LEAKS = /node_modules|node:internal|\bat [\w.<>]+ \(|\n\s+at .+\(|PrismaClient|ECONNREFUSED|postgres(ql)?:\/\/|redis:\/\/|SyntaxError: /;

/** The token endpoint answers an OAuth client's form post in RFC 6749's shape (5.2), not the envelope (lib/oidc/http.ts oidcTokenRoute). */
const answersInOAuthShape = (path: string, requestType: string | undefined) =>
  path === "/api/auth/oidc/token" && (requestType ?? "").toLowerCase().includes("application/x-www-form-urlencoded");

/**
 * What an answer must never be, whatever was sent (the fuzzers' one check):
 * a 5xx, without a request id, showing internals, or, under /api, an error
 * outside the spec's envelope (JSON) other than a browser route's page and
 * the token endpoint's RFC 6749 body for a form post. `where` names the
 * request in the problems returned; `requestType` is its Content-Type.
 */
export function answerProblems(where: string, path: string, status: number, headers: Headers, text: string, requestType?: string): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`status ${status}: ${text.slice(0, 200)}`);
  if (!/^req_[0-9a-f]{24}$/.test(headers.get("x-request-id") ?? "")) problems.push("no X-Request-Id");
  const type = headers.get("content-type") ?? "";
  // A served script (the API reference's bundle, /docs/scalar.js) is code, not an answer that could leak.
  const script = status < 300 && type.includes("javascript");
  if (!script && (LEAKS.test(text) || text.includes(process.cwd()))) problems.push(`leaks internals: ${text.slice(0, 200)}`);
  const isApi = path.startsWith("/api/");
  if (isApi && status >= 400 && type.startsWith("application/json")) {
    let body: { success?: unknown; data?: unknown; error?: unknown; error_description?: unknown } | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push("error body is not JSON");
    }
    if (body && answersInOAuthShape(path, requestType)) {
      if (typeof body.error !== "string" || typeof body.error_description !== "string") problems.push(`not RFC 6749's error body: ${text.slice(0, 200)}`);
    } else if (body) {
      const error = body.error as { code?: unknown; message?: unknown } | undefined;
      if (body.success !== false || body.data == null || typeof error?.code !== "string" || typeof error?.message !== "string") {
        problems.push(`not the error envelope: ${text.slice(0, 200)}`);
      }
    }
  } else if (isApi && status >= 400 && !type.includes("text/html")) {
    problems.push(`error as ${type || "no content type"}`);
  }
  return problems.map((p) => `${p} <- ${where}`);
}

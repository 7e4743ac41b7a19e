import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local server that speaks the NPPES NPI Registry API, version 2.1
 * (https://npiregistry.cms.hhs.gov/api-page): `GET /api/?version=2.1&number=<npi>`
 * answers `{ result_count, results: [...] }` in the registry's JSON shape;
 * a query without `version=2.1` or without search criteria answers
 * `{ Errors: [{ description, field, number }] }` with HTTP 200, as the real
 * one does. `behaviour` makes it slow, fail or talk nonsense; `hold` keeps
 * each answer until `release()` (a request that is slow for exactly as long
 * as a test needs).
 */
export type NppesTaxonomy = { code: string; desc: string; state: string; license: string; primary: boolean };
export type NppesRecord = {
  number: string;
  enumeration_type: "NPI-1" | "NPI-2";
  basic: { first_name?: string; last_name?: string; organization_name?: string; credential?: string; status: "A" | "D"; enumeration_date: string; last_updated: string };
  taxonomies: NppesTaxonomy[];
};

export type NppesBehaviour = "ok" | "timeout" | "http_500" | "garbage" | "hold";

export type TestNppes = {
  /** The base URL to set as NPPES_BASE_URL. */
  url: string;
  records: Map<string, NppesRecord>;
  behaviour: NppesBehaviour;
  /** NPIs asked for, in order. */
  queries: string[];
  /** Answers (as "ok" would) every query held so far by the `hold` behaviour. */
  release(): void;
  stop(): Promise<void>;
};

function reply(record: NppesRecord) {
  return {
    created_epoch: "1183939200000",
    enumeration_type: record.enumeration_type,
    last_updated_epoch: "1618790400000",
    number: record.number,
    addresses: [],
    practiceLocations: [],
    basic: { sole_proprietor: "NO", ...record.basic },
    taxonomies: record.taxonomies.map((t) => ({ taxonomy_group: "", ...t })),
    identifiers: [],
    endpoints: [],
    other_names: [],
  };
}

/** `port`: listen there (a server configured before this starts knows the URL); default any free port. */
export async function startNppes(records: NppesRecord[] = [], port = 0): Promise<TestNppes> {
  const state: TestNppes = { url: "", records: new Map(records.map((r) => [r.number, r])), behaviour: "ok", queries: [], release: () => {}, stop: async () => {} };
  const hanging = new Set<http.ServerResponse>();
  let held: Array<() => void> = [];
  state.release = () => {
    const answers = held;
    held = [];
    for (const answer of answers) answer();
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method !== "GET" || url.pathname !== "/api/") {
      res.writeHead(404, { "Content-Type": "text/html" }).end("<h1>Not Found</h1>");
      return;
    }
    const number = url.searchParams.get("number") ?? "";
    state.queries.push(number);
    if (state.behaviour === "timeout") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (state.behaviour === "http_500") {
      res.writeHead(500, { "Content-Type": "text/html" }).end("<h1>Internal Server Error</h1>");
      return;
    }
    if (state.behaviour === "garbage") {
      res.writeHead(200, { "Content-Type": "text/html" }).end("<html>maintenance</html>");
      return;
    }
    if (state.behaviour === "hold") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      held.push(() => answer(url, number, res));
      return;
    }
    answer(url, number, res);
  });
  const answer = (url: URL, number: string, res: http.ServerResponse) => {
    const json = (body: unknown) => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    if (url.searchParams.get("version") !== "2.1") {
      return json({ Errors: [{ description: "Unsupported Version", field: "version", number: "10" }] });
    }
    if (!number) return json({ Errors: [{ description: "No valid search criteria provided", field: "generic", number: "04" }] });
    const record = state.records.get(number);
    json({ result_count: record ? 1 : 0, results: record ? [reply(record)] : [] });
  };
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}

import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { NOT_SERVED, ROUTE_OPERATION } from "@/lib/http/api-route";
import type { Operation } from "@/lib/http/operation";

/**
 * The route table as the file tree serves it (Next's app router), read from
 * the route modules themselves: every `route.ts` under a folder, the methods
 * it really serves (routeMethods' 405 and OPTIONS fillers are marked), its
 * path with `{param}` for each dynamic segment, and the documented operation
 * each handler was built from (`apiRoute(operation, handler)`). The OpenAPI
 * checks (tests/unit/openapi-document.test.ts, route-contracts.test.ts) and
 * the portal's tenant isolation sweep read it, so a new route file is seen
 * without a list to keep up to date.
 */
export function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** A route file's URL path, `{name}` for each dynamic segment (`[appId]` -> `{appId}`), as OpenAPI writes paths. */
export function routeTemplate(file: string): string {
  return (
    "/" +
    path
      .dirname(file)
      .replace(/^app\//, "")
      .replace(/\[([^\]]+)\]/g, "{$1}")
  );
}

export type ServedRoute = { file: string; method: string; path: string; operation: Operation | undefined };

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every method the route files under `dir` serve, with the operation each handler names (imports the modules). */
export async function servedRoutes(dir: string): Promise<ServedRoute[]> {
  const served: ServedRoute[] = [];
  for (const file of routeFiles(dir)) {
    const module = (await import(path.resolve(file))) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = module[method] as ({ [NOT_SERVED]?: true; [ROUTE_OPERATION]?: Operation } & object) | undefined;
      if (!handler || handler[NOT_SERVED]) continue;
      served.push({ file, method, path: routeTemplate(file), operation: handler[ROUTE_OPERATION] });
    }
  }
  return served;
}

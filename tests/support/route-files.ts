import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The route table as the file tree serves it (Next's app router): every
 * `route.ts` under a folder, the methods each really serves, and its path
 * with `{param}` for each dynamic segment. The OpenAPI completeness check
 * (tests/unit/openapi-document.test.ts) and the portal's tenant isolation
 * sweep (tests/integration/tenant-isolation-portal.test.ts) read it, so a
 * new route file is seen by both without a list to keep up to date.
 */
export function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** The methods a route file really serves (routeMethods' keys, or exported handlers), not the 405 fillers. */
export function servedMethods(source: string): string[] {
  const defined = source.match(/routeMethods\(\{([\s\S]*)\}\)/);
  const text = defined ? defined[1]! : source;
  const pattern = defined
    ? /\b(GET|POST|PUT|PATCH|DELETE)\s*:/g
    : /export\s+(?:async\s+)?(?:const|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g;
  const methods = new Set([...text.matchAll(pattern)].map((m) => m[1]!));
  // A handler exported on its own next to routeMethods (e.g. health/live's GET).
  for (const m of source.matchAll(/export\s+const\s+(GET|POST|PUT|PATCH|DELETE)\s*=/g)) methods.add(m[1]!);
  return [...methods];
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

/**
 * The layers of lib/ (docs/architecture.md "Layers inside lib/"), checked by
 * tests/unit/layers.test.ts on every `npm test`:
 *   1. platform: what knows no domain (database, crypto, configuration, the
 *      HTTP core, jobs, mail, i18n machinery, the vision pool, logging...);
 *   2. domains: sessions, checks, faces, identity, oidc, billing...;
 *   3. surfaces: app/ and components/ (and, inside lib/, the CLI, the
 *      OpenAPI contract, the reference page, the server's start-up).
 * Imports go downward only. What is already known to break a rule is listed
 * in .dependency-cruiser-known-violations.json: it may only shrink (the test
 * fails on any violation not in it, and on an entry that no longer occurs,
 * so a fix removes its entry). Regenerate it after fixing with
 * `npm run -s layers:baseline`.
 */
const PLATFORM = ["db", "crypto", "config", "http", "jobs", "mail", "i18n", "vision", "log", "redis", "cache", "images", "audit", "net", "clock\\.ts", "process-slots\\.ts", "contract-vocabulary\\.ts"];
const SURFACES_IN_LIB = ["cli", "openapi", "docs", "server", "health", "operations"];
const platform = `^lib/(${PLATFORM.join("|")})`;
const aboveThePlatform = `^lib/(?!(${PLATFORM.join("|")})(/|$))`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module reaches itself through its imports: a circle of files is one module split in pieces.",
      severity: "error",
      from: { path: "^(lib|app|components|bin|workers)/" },
      to: { circular: true },
    },
    {
      name: "no-folder-cycles",
      comment: "No two folders of lib/ import each other, directly or through others: each folder sits on one floor.",
      severity: "error",
      scope: "folder",
      from: { path: "^lib/" },
      to: { path: "^lib/", circular: true },
    },
    {
      name: "platform-imports-no-domain",
      comment: "The platform knows no domain: where it needs domain behaviour it exposes a registry the domains fill at start-up.",
      severity: "error",
      from: { path: platform },
      to: { path: aboveThePlatform },
    },
    {
      name: "domains-import-no-surface",
      comment: "Domains do not import the surfaces built on them (the CLI, the OpenAPI contract, the reference page, start-up).",
      severity: "error",
      from: { path: "^lib/", pathNot: `^lib/(${SURFACES_IN_LIB.join("|")})/` },
      to: { path: `^lib/(${SURFACES_IN_LIB.join("|")})/` },
    },
    {
      name: "lib-imports-no-page",
      comment: "lib/ never imports app/ or components/.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
  ],
  options: {
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|generated|\\.next)" },
  },
};

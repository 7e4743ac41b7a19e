import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { lintFromString, loadConfig } from "@redocly/openapi-core";

/**
 * The two outside checks of the OpenAPI document: @apidevtools/swagger-parser's
 * `validate()` (the OpenAPI 3.1 schema and its semantic rules) and Redocly's
 * recommended ruleset (redocly.yaml at the repository root, with the
 * reasoned exceptions of .redocly.lint-ignore.yaml). The text is linted as
 * sdk/openapi.json, the file `npm run openapi:write` writes, so the
 * exceptions apply to the served copy too.
 */
export async function swaggerParserErrors(document: unknown): Promise<string | null> {
  try {
    await SwaggerParser.validate(structuredClone(document) as never);
    return null;
  } catch (error) {
    return String(error);
  }
}

export async function redoclyProblems(text: string): Promise<string[]> {
  const config = await loadConfig({ configPath: path.join(process.cwd(), "redocly.yaml") });
  const problems = await lintFromString({ source: text, absoluteRef: path.join(process.cwd(), "sdk/openapi.json"), config });
  return problems
    .filter((p) => !p.ignored)
    .map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? "?"})`);
}

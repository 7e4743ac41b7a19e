import path from "node:path";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";

/**
 * The SDK's generated files (sdk/): the OpenAPI document as JSON and the
 * TypeScript types openapi-typescript derives from it. Written by
 * `npm run openapi:write`; compared with the code's document by the tests.
 */
export const SDK_DOCUMENT_PATH = path.join(process.cwd(), "sdk/openapi.json");
export const SDK_TYPES_PATH = path.join(process.cwd(), "sdk/src/schema.ts");

export function serializedDocument(doc: object): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export async function sdkSchemaTypes(doc: object): Promise<string> {
  const ast = await openapiTS(structuredClone(doc) as never);
  return COMMENT_HEADER + astToString(ast);
}

/**
 * `npm run openapi:write`: writes the OpenAPI document (lib/openapi/) to
 * sdk/openapi.json and the SDK's types generated from it by
 * openapi-typescript to sdk/src/schema.ts. A unit test
 * (tests/unit/openapi-document.test.ts) fails while either is stale.
 */
import { writeFileSync } from "node:fs";
import { openApiDocument } from "@/lib/openapi/document";
import { sdkSchemaTypes, SDK_DOCUMENT_PATH, SDK_TYPES_PATH, serializedDocument } from "./sdk-artifacts";

writeFileSync(SDK_DOCUMENT_PATH, serializedDocument(openApiDocument()));
writeFileSync(SDK_TYPES_PATH, await sdkSchemaTypes(openApiDocument()));
console.log(`wrote ${SDK_DOCUMENT_PATH} and ${SDK_TYPES_PATH}`);

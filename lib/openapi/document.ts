import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { z } from "zod";
import { WEBHOOK_HEADERS, WebhookEventPayload } from "@/lib/webhooks/event-payload";
import type { Operation, OperationSuccess, Upload } from "@/lib/http/operation";
import { API_OPERATIONS } from "./operations";
import {
  IDEMPOTENCY_KEY_PARAMETER,
  acceptsIdempotencyKey,
  RATE_LIMIT_HEADERS,
  RESPONSE_HEADERS,
  errorEnvelope,
  oauthErrorBody,
  errorsOf,
  securityOf,
  successEnvelope,
  successesOf,
} from "./responses";
import { QUICK_START } from "./quick-start";

export const OPENAPI_VERSION = "3.1.0" as const;
export const API_VERSION = "2.0.0";

function successResponse(op: Operation, success: OperationSuccess) {
  const headers = { ...RESPONSE_HEADERS, ...(op.rateLimited === false ? {} : RATE_LIMIT_HEADERS) } as Record<string, unknown>;
  for (const [name, description] of Object.entries(success.headers ?? {})) headers[name] = { description, schema: { type: "string" } };
  const kind = success.body ?? "envelope";
  const content =
    kind === "envelope"
      ? { "application/json": { schema: successEnvelope(success.schema ?? z.unknown()) } }
      : kind === "json"
        ? { "application/json": { schema: success.schema ?? z.unknown() } }
        : kind === "html"
          ? { "text/html": { schema: z.string() } }
          : undefined;
  return { description: success.description, headers, ...(content ? { content } : {}) };
}

function errorResponses(op: Operation) {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of [...errorsOf(op)].sort(([a], [b]) => a - b)) {
    const content =
      op.errorBody === "html"
        ? { "text/html": { schema: z.string().meta({ description: "A page naming the error." }) } }
        : op.errorBody === "oauth"
          ? { "application/json": { schema: z.union([errorEnvelope(codes), oauthErrorBody(codes)]) } }
          : { "application/json": { schema: errorEnvelope(codes) } };
    responses[String(status)] = { description: codes.map((c) => `\`${c}\``).join(", "), headers: RESPONSE_HEADERS, content };
  }
  return responses;
}

function requestBody(op: Operation): ZodOpenApiOperationObject["requestBody"] {
  if (op.body || op.form) {
    return {
      // A body schema that accepts nothing at all (`.optional()`, e.g. invite's) makes the body optional.
      required: !(op.body ?? op.form)!.safeParse(undefined).success,
      content: {
        ...(op.body ? { "application/json": { schema: op.body } } : {}),
        ...(op.form ? { "application/x-www-form-urlencoded": { schema: op.form } } : {}),
      },
    };
  }
  if (op.upload) return { required: true, content: { "multipart/form-data": { schema: uploadSchema(op.upload) } } };
  return undefined;
}

/** The multipart body: the route's zod schema of its text fields, plus each file part as an image (an array of them when `multiple`). */
function uploadSchema(upload: Upload) {
  const files = Object.entries(upload.files).map(([name, file]) => {
    const image = z.string().meta({ contentMediaType: "image/*" });
    const part = (file.multiple ? z.array(image) : image).meta({ description: file.description });
    return [name, file.required === false ? part.optional() : part] as const;
  });
  return z.object({ ...upload.fields?.shape, ...Object.fromEntries(files) });
}

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const responses: Record<string, unknown> = {};
  for (const success of successesOf(op)) responses[String(success.status)] = successResponse(op, success);
  Object.assign(responses, errorResponses(op));
  const requestParams: NonNullable<ZodOpenApiOperationObject["requestParams"]> = {};
  if (op.params) requestParams.path = op.params;
  if (op.query) requestParams.query = op.query as z.ZodObject;
  const body = requestBody(op);
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: securityOf(op.auth),
    ...(Object.keys(requestParams).length ? { requestParams } : {}),
    ...(acceptsIdempotencyKey(op) ? { parameters: [IDEMPOTENCY_KEY_PARAMETER] } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses as ZodOpenApiOperationObject["responses"],
  } as ZodOpenApiOperationObject;
}

function paths(list: readonly Operation[]): ZodOpenApiPathsObject {
  const out: ZodOpenApiPathsObject = {};
  for (const op of list) {
    const item = (out[op.path] ??= {});
    if (item[op.method]) throw new Error(`Two operations for ${op.method.toUpperCase()} ${op.path}`);
    item[op.method] = operationObject(op);
  }
  return out;
}

const webhookDelivery: ZodOpenApiOperationObject = {
  operationId: "receiveVerificationEvent",
  summary: "A session or recovery outcome, POSTed to your webhook",
  description:
    "Sent to the app's approved webhooks (or the session's `callback`) when a session reaches IN_REVIEW or a terminal status, and to the project webhook when an account recovery finishes. Verify the signature and the timestamp before trusting it (the SDK's `verifyWebhook`), de-duplicate on `event_id`, answer any 2xx quickly. A non-2xx answer is retried with exponential backoff. The delivery carries no credential (`security: []`): the signature headers authenticate it.",
  tags: ["Webhooks"],
  security: [],
  requestParams: {
    header: z.object(
      Object.fromEntries(Object.entries(WEBHOOK_HEADERS).map(([name, description]) => [name, z.string().meta({ description })])),
    ),
  },
  requestBody: { required: true, content: { "application/json": { schema: WebhookEventPayload } } },
  responses: {
    "200": { description: "Acknowledged (any 2xx)." },
    "400": { description: "Your receiver refused the delivery (bad signature or stale timestamp); it is not retried as a success." },
  },
};

let built: ReturnType<typeof createDocument> | undefined;

/** The OpenAPI 3.1 document of the public surface (served at /api/v2/openapi.json, rendered at /docs). */
export function openApiDocument(): ReturnType<typeof createDocument> {
  return (built ??= createDocument({
    openapi: OPENAPI_VERSION,
    info: {
      title: "Identity verification service",
      version: API_VERSION,
      description: QUICK_START,
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [{ url: "/", description: "This server" }],
    tags: [
      { name: "Sessions", description: "Hosted verification sessions and their decisions (spec 4.1)." },
      { name: "Workflows", description: "Feature bundles a session runs (spec 4.2)." },
      { name: "Identity", description: "Reusable identities and the face registry (spec 4.3)." },
      { name: "Credentials", description: "Professional licence discovery (spec 4.4)." },
      { name: "Webhooks", description: "Webhook endpoints, deliveries and test events (spec 6)." },
      { name: "Hosted flow", description: "The calls the hosted page makes with the session token. Documented for custom front ends." },
      { name: "OpenID Connect", description: "Sign-in with a verified identity, and account reads (spec 4.5)." },
      { name: "Organization", description: "Workforce roster, seats and account recovery (spec 4.6)." },
      { name: "Health", description: "Liveness and readiness probes." },
      { name: "Reference", description: "This document." },
    ],
    paths: paths(API_OPERATIONS),
    webhooks: { verificationEvent: { post: webhookDelivery } },
    components: {
      securitySchemes: {
        ApiKeyBearer: { type: "http", scheme: "bearer", description: "A verification API key from the developer portal." },
        ApiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "The same API key in a header." },
        ClientId: { type: "apiKey", in: "header", name: "X-Client-Id", description: "The app's client id (organization API)." },
        ClientSecret: { type: "apiKey", in: "header", name: "X-Client-Secret", description: "The app's client secret; server side only." },
        SessionToken: { type: "http", scheme: "bearer", description: "A session's `session_token` (the hosted page's calls)." },
        SessionTokenHeader: { type: "apiKey", in: "header", name: "X-Session-Token", description: "The same session token in a header." },
        OidcAccessToken: { type: "http", scheme: "bearer", description: "An access token from the OIDC token endpoint." },
        ClientSecretBasic: { type: "http", scheme: "basic", description: "client_id:client_secret; or both in the form body." },
      },
    },
  }));
}

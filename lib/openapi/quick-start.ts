/**
 * The reference page's introduction (Markdown, rendered by /docs): the
 * shortest path from an API key to a decision.
 */
export const QUICK_START = `
Identity verification you host yourself: hosted verification sessions (\`/api/v2\`), an OpenID Connect provider for reusable identities (\`/api/auth/oidc\`), and an organization API for a workforce roster (\`/api/sdk\`). Every check is real; there is no fake-result sandbox.

## Quick start

1. **Get an API key.** Sign in to the developer portal (\`/sign-in\`; \`npm run dev\` prints a demo account), open your app and create a key. Test and production apps have separate keys, workflows and webhooks.
2. **Create a workflow** (once): the checks a session runs.

   \`\`\`bash
   curl -s $BASE/api/v2/workflows -H "X-API-Key: $KEY" -H "Content-Type: application/json" \\
     -d '{"name":"KYC","features":["id_verification","liveness","face_match"]}'
   \`\`\`
3. **Create a session** for a person and send them to its \`url\` (the hosted page captures the document, a selfie burst and whatever else the workflow asks):

   \`\`\`bash
   curl -s $BASE/api/v2/session -H "X-API-Key: $KEY" -H "Content-Type: application/json" \\
     -H "Idempotency-Key: $(uuidgen)" \\
     -d '{"workflow_id":"<workflow id>","redirect_url":"https://example.com/done","vendor_data":"user-42"}'
   \`\`\`
4. **Read the decision** when the person comes back (the \`?status=\` on your \`redirect_url\` is only a hint), or receive the signed webhook (see *Webhooks* below) and then read it:

   \`\`\`bash
   curl -s $BASE/api/v2/session/<session_id>/decision -H "X-API-Key: $KEY"
   \`\`\`

## Conventions

- **Envelopes.** Success \`{ "success": true, "data": … }\`; error \`{ "success": false, "data": [] | {…}, "error": { "code", "message" } }\`. Branch on \`error.code\`; each operation lists the codes it can answer. The OIDC token, userinfo, discovery and JWKS endpoints answer standard top-level JSON.
- **Request ids.** Every response carries \`X-Request-Id\`; quote it when reporting a problem.
- **Retries.** Send an \`Idempotency-Key\` on every POST you may retry: a retry with the same key and body replays the first answer (\`Idempotent-Replayed: true\`). Retry 429 and 5xx with backoff.
- **Rate limits.** \`X-RateLimit-Limit\` and \`X-RateLimit-Remaining\` per minute; over the limit, 429 \`rate_limited\`.
- **Webhooks.** Deliveries are signed: \`X-Svc-Signature\` is the hex HMAC-SHA256 of \`<X-Svc-Timestamp>.<raw body>\` with the webhook's secret (while a secret is being rolled, one signature per secret, comma separated: accept any match). Verify it, refuse timestamps older than 300 s, de-duplicate on \`X-Svc-Event-Id\`, answer 2xx quickly.

This document is generated from the schemas the server validates with, and served at [\`/api/v2/openapi.json\`](/api/v2/openapi.json).
`.trim();

export {
  createAccountReader,
  createOrganizationClient,
  createVerificationClient,
  retryingFetch,
  IDEMPOTENCY_HEADER,
  type BaseOptions,
  type RetryOptions,
} from "./client.js";
export {
  DEFAULT_TOLERANCE_SECONDS,
  handleWebhookRequest,
  MemoryDedupStore,
  verifyWebhook,
  WebhookVerificationError,
  type DedupStore,
  type VerifiedEvent,
  type VerifyOptions,
} from "./webhooks.js";
export type { components, paths } from "./schema.js";

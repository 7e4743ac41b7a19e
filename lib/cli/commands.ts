import fs from "node:fs";
import { centsToAmount, parseAmountToCents } from "@/lib/billing/money";
import { ApiError } from "@/lib/http/api-error";
import { TEST_EVENT_KINDS, type TestEventKind } from "@/lib/webhooks/kinds";
import { requireFlag, UsageError, type Flags } from "./args";

/** `--amount` (a decimal amount such as 12.50) in cents; a malformed amount is a usage error. */
function amountFlagInCents(flags: Flags): number {
  try {
    return parseAmountToCents(requireFlag(flags, "amount"));
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(err.message);
    throw err;
  }
}

type Command = { usage: string; run(flags: Flags): Promise<object> };

/** The audit trail's actor for changes made with the admin CLI (the operator, on the server). */
const CLI_ACTOR = { actor: "cli" };

/**
 * The admin CLI's commands: each prints one JSON object (docs/operations.md "Admin CLI").
 * Each command imports what it runs when it runs: a CLI process loads only
 * its own command's modules (it starts in about half the time).
 */
export const COMMANDS: Record<string, Command> = {
  "developer:create": {
    usage: "--email E --password P [--name N] [--org-name O]",
    async run(flags) {
      const { createDeveloper } = await import("@/lib/tenancy/create-developer");
      const created = await createDeveloper({
        email: requireFlag(flags, "email"),
        password: requireFlag(flags, "password"),
        name: typeof flags.name === "string" ? flags.name : undefined,
        organizationName: typeof flags["org-name"] === "string" ? flags["org-name"] : undefined,
        emailVerified: true,
      });
      return { developer_id: created.developerId, organization_id: created.organizationId, email: created.email };
    },
  },
  "developer:verify-email": {
    usage: "--email E",
    async run(flags) {
      const { verifyDeveloperEmailByAddress } = await import("@/lib/tenancy/verify-developer-email");
      const verified = await verifyDeveloperEmailByAddress(requireFlag(flags, "email"));
      return {
        developer_id: verified.developerId,
        email: verified.email,
        email_verified: true,
        welcome_credit_granted: verified.welcomeCreditGranted,
        ...(verified.welcomeCreditWithheld && { welcome_credit_withheld: verified.welcomeCreditWithheld }),
      };
    },
  },
  "app:create": {
    usage: "--org ORG --name N --env test|production",
    async run(flags) {
      const { createApp } = await import("@/lib/tenancy/create-app");
      const app = await createApp({
        organizationId: requireFlag(flags, "org"),
        name: requireFlag(flags, "name"),
        environment: requireFlag(flags, "env") as "test" | "production",
      });
      return {
        app_id: app.appId,
        environment: app.environment,
        api_key: app.apiKey,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      };
    },
  },
  "app:create-key": {
    usage: "--app APP [--name N]",
    async run(flags) {
      const { issueApiKey } = await import("@/lib/tenancy/create-app");
      const key = await issueApiKey(requireFlag(flags, "app"), typeof flags.name === "string" ? flags.name : "default");
      return { api_key_id: key.id, api_key: key.apiKey, prefix: key.prefix };
    },
  },
  "app:revoke-key": {
    usage: "--key API_KEY",
    async run(flags) {
      const { revokeApiKey } = await import("@/lib/tenancy/create-app");
      const revoked = await revokeApiKey(requireFlag(flags, "key"));
      return { api_key_id: revoked.id, prefix: revoked.prefix, app_id: revoked.appId, revoked: true };
    },
  },
  "app:redirect-uri": {
    usage: "--app APP --uri URI",
    async run(flags) {
      const { addRedirectUri } = await import("@/lib/tenancy/oidc-settings");
      return addRedirectUri(requireFlag(flags, "app"), requireFlag(flags, "uri"));
    },
  },
  "app:scopes": {
    usage: '--app APP --scopes "openid profile verifications"',
    async run(flags) {
      const { setScopes } = await import("@/lib/tenancy/oidc-settings");
      return setScopes(requireFlag(flags, "app"), requireFlag(flags, "scopes").split(/[\s,]+/).filter(Boolean));
    },
  },
  "app:logo": {
    usage: "--app APP --file logo.png | --clear",
    async run(flags) {
      const { setAppLogo } = await import("@/lib/tenancy/app-branding");
      return setAppLogo(requireFlag(flags, "app"), flags.clear ? null : fs.readFileSync(requireFlag(flags, "file")));
    },
  },
  "webhook:create": {
    usage: "--app APP --url URL [--approve]",
    async run(flags) {
      const { createWebhookEndpoint } = await import("@/lib/tenancy/webhook-endpoints");
      const hook = await createWebhookEndpoint({
        appId: requireFlag(flags, "app"),
        url: requireFlag(flags, "url"),
        approve: flags.approve === true || flags.approve === "true",
      });
      return { webhook_id: hook.webhookId, url: hook.url, secret: hook.secret, approved: hook.approved, active: hook.active };
    },
  },
  "webhook:approve": {
    usage: "--webhook ID",
    async run(flags) {
      const { approveWebhookEndpoint } = await import("@/lib/tenancy/webhook-endpoints");
      const { webhookAppId } = await import("@/lib/webhooks/deliveries");
      const webhookId = requireFlag(flags, "webhook");
      const hook = await approveWebhookEndpoint(await webhookAppId(webhookId), webhookId);
      return { webhook_id: hook.webhook_id, url: hook.url, approved: hook.approved, active: hook.active };
    },
  },
  "webhook:test": {
    usage: `--webhook ID --kind ${TEST_EVENT_KINDS.join("|")}`,
    async run(flags) {
      const { webhookAppId } = await import("@/lib/webhooks/deliveries");
      const { presentTestEvent, sendTestEvent } = await import("@/lib/webhooks/test-events");
      const kind = requireFlag(flags, "kind");
      if (!(TEST_EVENT_KINDS as readonly string[]).includes(kind)) {
        throw new UsageError(`--kind must be one of ${TEST_EVENT_KINDS.join(", ")}`);
      }
      const webhookId = requireFlag(flags, "webhook");
      return presentTestEvent(await sendTestEvent(await webhookAppId(webhookId), webhookId, kind as TestEventKind));
    },
  },
  "webhook:deliveries": {
    usage: "--app APP [--limit N]",
    async run(flags) {
      const { listDeliveries } = await import("@/lib/webhooks/deliveries");
      const limit = typeof flags.limit === "string" ? Number(flags.limit) : 100;
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError("--limit must be a positive whole number");
      return { deliveries: await listDeliveries(requireFlag(flags, "app"), limit) };
    },
  },
  "webhook:resend": {
    usage: "--delivery ID",
    async run(flags) {
      const { deliveryAppId, resendDelivery } = await import("@/lib/webhooks/deliveries");
      const deliveryId = requireFlag(flags, "delivery");
      return resendDelivery(await deliveryAppId(deliveryId), deliveryId);
    },
  },
  "webhook:rotate-secret": {
    usage: "--webhook ID",
    async run(flags) {
      const { rotateWebhookSecret } = await import("@/lib/tenancy/webhook-endpoints");
      const { webhookAppId } = await import("@/lib/webhooks/deliveries");
      const webhookId = requireFlag(flags, "webhook");
      const rotated = await rotateWebhookSecret(await webhookAppId(webhookId), webhookId, 0, CLI_ACTOR);
      return { webhook_id: rotated.webhookId, secret: rotated.secret };
    },
  },
  "webhook:disable": {
    usage: "--webhook ID",
    async run(flags) {
      const { setWebhookEndpointActive } = await import("@/lib/tenancy/webhook-endpoints");
      const { webhookAppId } = await import("@/lib/webhooks/deliveries");
      const webhookId = requireFlag(flags, "webhook");
      return { webhook: await setWebhookEndpointActive(await webhookAppId(webhookId), webhookId, false, CLI_ACTOR) };
    },
  },
  "webhook:enable": {
    usage: "--webhook ID",
    async run(flags) {
      const { setWebhookEndpointActive } = await import("@/lib/tenancy/webhook-endpoints");
      const { webhookAppId } = await import("@/lib/webhooks/deliveries");
      const webhookId = requireFlag(flags, "webhook");
      return { webhook: await setWebhookEndpointActive(await webhookAppId(webhookId), webhookId, true, CLI_ACTOR) };
    },
  },
  "webhook:delete": {
    usage: "--webhook ID",
    async run(flags) {
      const { deleteWebhookEndpoint } = await import("@/lib/tenancy/webhook-endpoints");
      const { webhookAppId } = await import("@/lib/webhooks/deliveries");
      const webhookId = requireFlag(flags, "webhook");
      return deleteWebhookEndpoint(await webhookAppId(webhookId), webhookId, CLI_ACTOR);
    },
  },
  "wallet:credit": {
    usage: "--org ORG --amount 12.50",
    async run(flags) {
      const { creditWallet } = await import("@/lib/billing/wallet");
      const { db } = await import("@/lib/db/client");
      const cents = amountFlagInCents(flags);
      if (cents === 0) throw new UsageError("--amount must be greater than 0");
      const organizationId = requireFlag(flags, "org");
      const prisma = await db();
      if (!(await prisma.organization.findUnique({ where: { id: organizationId } }))) {
        throw new ApiError("not_found", { message: "Organization not found" });
      }
      const wallet = await creditWallet(organizationId, cents);
      return { organization_id: organizationId, balance: wallet.balance };
    },
  },
  "wallet:top-up-link": {
    usage: "--org ORG --amount 25.00 [--email E] [--success-url URL] [--cancel-url URL]",
    async run(flags) {
      const { createTopUpCheckout, defaultTopUpReturnUrls } = await import("@/lib/billing/create-top-up-checkout");
      const cents = amountFlagInCents(flags);
      const defaults = defaultTopUpReturnUrls();
      const optional = (name: string) => (typeof flags[name] === "string" ? (flags[name] as string) : undefined);
      const checkout = await createTopUpCheckout(requireFlag(flags, "org"), cents, {
        successUrl: optional("success-url") ?? defaults.successUrl,
        cancelUrl: optional("cancel-url") ?? defaults.cancelUrl,
        developerEmail: optional("email"),
      });
      return {
        top_up_id: checkout.topUpId,
        checkout_session_id: checkout.checkoutSessionId,
        url: checkout.url,
        amount: centsToAmount(checkout.amountMinor),
        currency: checkout.currency,
        expires_at: checkout.expiresAt?.toISOString() ?? null,
      };
    },
  },
  "oidc:rotate-key": {
    usage: "",
    async run() {
      const { rotateSigningKey } = await import("@/lib/oidc/keys");
      const rotated = await rotateSigningKey();
      return { kid: rotated.kid, next: rotated.next, retired: rotated.retired };
    },
  },
  "oidc:keys": {
    usage: "",
    async run() {
      const { listSigningKeys } = await import("@/lib/oidc/keys");
      return { keys: await listSigningKeys() };
    },
  },
  "registry:import": {
    usage:
      '--file F --provider CODE --name "Display name" --state XX [--issuer "Issuing authority"] [--format csv|json] [--required-fields license_number]',
    async run(flags) {
      const { importRegistry } = await import("@/lib/licence-registries/import/import-registry");
      const format = flags.format;
      if (format !== undefined && format !== "csv" && format !== "json") throw new UsageError("--format must be csv or json");
      const displayName = requireFlag(flags, "name");
      const issuer = flags.issuer;
      if (issuer === true) throw new UsageError("--issuer needs a value");
      const requiredFields = flags["required-fields"];
      if (requiredFields === true) throw new UsageError("--required-fields needs a value");
      return importRegistry({
        file: requireFlag(flags, "file"),
        providerCode: requireFlag(flags, "provider"),
        displayName,
        stateCode: requireFlag(flags, "state"),
        issuingAuthority: issuer ?? displayName,
        requiredFields: requiredFields?.split(/[\s,]+/).filter(Boolean),
        format,
      });
    },
  },
  "registry:list": {
    usage: "",
    async run() {
      const { listImportedRegistries } = await import("@/lib/licence-registries/import/import-registry");
      const providers = await listImportedRegistries();
      return {
        providers: providers.map((p) => ({
          provider_code: p.provider_code,
          display_name: p.display_name,
          state_code: p.state_code,
          issuing_authority: p.issuing_authority,
          required_fields: p.required_fields,
          licences: p.licences,
          credentials: p.credentials,
          imported_at: p.imported_at,
          sha256: p.sha256,
        })),
      };
    },
  },
  "licences:recheck": {
    usage: "[--force]",
    async run(flags) {
      const { recheckLicences } = await import("@/lib/credentials/recheck-licences");
      return recheckLicences(undefined, { force: flags.force === true });
    },
  },
  "keys:rotate": {
    usage: "[--batch-size N]",
    async run(flags) {
      const { rotateEncryptionKey } = await import("@/lib/operations/rotate-keys");
      const batchSize = typeof flags["batch-size"] === "string" ? Number(flags["batch-size"]) : undefined;
      if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)) {
        throw new UsageError("--batch-size must be a whole number from 1 to 10000");
      }
      return rotateEncryptionKey({ batchSize });
    },
  },
  demo: {
    usage: "",
    async run() {
      const { ensureDemo } = await import("@/lib/tenancy/demo");
      const { created, ...credentials } = await ensureDemo();
      return { ...credentials, created };
    },
  },
};

export function usage(): string {
  return [
    "usage: npm run -s svc -- <command> [flags]",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name} ${c.usage}`.trimEnd()),
  ].join("\n");
}

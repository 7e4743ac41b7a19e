import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/client";
import { getWallet } from "@/lib/billing/wallet";
import { createApp, issueApiKey, rotateClientSecret } from "./create-app";
import { createDeveloper } from "./create-developer";
import { addRedirectUri, setScopes } from "./oidc-settings";
import { KNOWN_SCOPES } from "./schemas";

export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "demo-password-1234";
export const DEMO_REDIRECT_URI = "http://localhost:8080/callback";

export type DemoCredentials = {
  developer_id: string;
  organization_id: string;
  email: string;
  password: string;
  app_id: string;
  environment: "test";
  api_key: string;
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  scopes: string[];
  wallet_balance: number;
};

export function demoCredentialsFile(): string {
  return path.join(env().DATA_DIR, "demo-credentials.json");
}

function readSaved(): DemoCredentials | undefined {
  try {
    return JSON.parse(fs.readFileSync(demoCredentialsFile(), "utf8")) as DemoCredentials;
  } catch {
    return undefined;
  }
}

function save(credentials: DemoCredentials) {
  fs.mkdirSync(path.dirname(demoCredentialsFile()), { recursive: true });
  fs.writeFileSync(demoCredentialsFile(), `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}

/**
 * Creates (once) the demo developer, organization and a test app with every
 * scope and a localhost redirect URI. Secrets are only stored hashed, so the
 * clear values are kept in DATA_DIR/demo-credentials.json for development;
 * when that file is gone, the demo app gets a fresh API key and client secret.
 */
export async function ensureDemo(): Promise<DemoCredentials & { created: boolean }> {
  const prisma = await db();
  const existing = await prisma.developer.findUnique({
    where: { email: DEMO_EMAIL },
    include: { memberships: { include: { organization: { include: { apps: true } } } } },
  });
  if (!existing) {
    const developer = await createDeveloper({
      email: DEMO_EMAIL,
      password: DEMO_PASSWORD,
      name: "Demo Developer",
      organizationName: "Demo organization",
      emailVerified: true,
    });
    const app = await createApp({ organizationId: developer.organizationId, name: "Demo app", environment: "test" });
    await addRedirectUri(app.appId, DEMO_REDIRECT_URI);
    await setScopes(app.appId, [...KNOWN_SCOPES]);
    return { ...(await saveCredentials(developer.developerId, app.appId, app)), created: true };
  }
  const organization = existing.memberships[0]?.organization;
  const app = organization?.apps.find((a) => a.name === "Demo app") ?? organization?.apps[0];
  if (!organization || !app) throw new Error("The demo developer exists but has no organization or app");
  const saved = readSaved();
  if (saved && saved.app_id === app.id) {
    const wallet = await getWallet(organization.id);
    return { ...saved, redirect_uris: app.redirectUris, scopes: app.scopes, wallet_balance: wallet?.balance ?? 0, created: false };
  }
  const key = await issueApiKey(app.id, "demo");
  const client = await rotateClientSecret(app.id);
  const secrets = { apiKey: key.apiKey, clientId: client.clientId, clientSecret: client.clientSecret };
  return { ...(await saveCredentials(existing.id, app.id, secrets)), created: false };
}

/** Reads the demo app's current settings, writes the credentials file and returns its content. */
async function saveCredentials(
  developerId: string,
  appId: string,
  secrets: { apiKey: string; clientId: string; clientSecret: string },
): Promise<DemoCredentials> {
  const prisma = await db();
  const app = await prisma.app.findUniqueOrThrow({ where: { id: appId } });
  const wallet = await getWallet(app.organizationId);
  const credentials: DemoCredentials = {
    developer_id: developerId,
    organization_id: app.organizationId,
    email: DEMO_EMAIL,
    password: DEMO_PASSWORD,
    app_id: app.id,
    environment: "test",
    api_key: secrets.apiKey,
    client_id: secrets.clientId,
    client_secret: secrets.clientSecret,
    redirect_uris: app.redirectUris,
    scopes: app.scopes,
    wallet_balance: wallet?.balance ?? 0,
  };
  save(credentials);
  return credentials;
}

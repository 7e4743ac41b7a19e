-- Rolling keys and secrets with an overlap window (issue 33 item 15): a
-- rolled API key keeps working until expires_at; a rotated OIDC client
-- secret (hashed like client_secret_hash) and a rotated webhook signing
-- secret (sealed like secret_encrypted) stay valid until their
-- previous_*_expires_at.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "expires_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "previous_client_secret_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "previous_client_secret_hash" TEXT;

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "previous_secret_encrypted" TEXT,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3);


-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_verified_at" TIMESTAMP(3),
    "name" TEXT,
    "preferred_username" TEXT,
    "last_login_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_login_codes" (
    "id" TEXT NOT NULL,
    "interaction_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "request_ip" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "consumed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_login_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_interactions" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "nonce" TEXT,
    "code_challenge" TEXT,
    "login_hint" TEXT,
    "browser_hash" TEXT NOT NULL,
    "account_id" TEXT,
    "auth_time" TIMESTAMP(3),
    "pending_email" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "completed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_interactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_grants" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "nonce" TEXT,
    "auth_time" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oidc_authorization_codes" (
    "code_hash" TEXT NOT NULL,
    "grant_id" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "consumed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_authorization_codes_pkey" PRIMARY KEY ("code_hash")
);

-- CreateTable
CREATE TABLE "oidc_refresh_tokens" (
    "token_hash" TEXT NOT NULL,
    "grant_id" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "consumed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_refresh_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "oidc_access_tokens" (
    "token_hash" TEXT NOT NULL,
    "grant_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_access_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "oidc_signing_keys" (
    "kid" TEXT NOT NULL,
    "alg" TEXT NOT NULL DEFAULT 'RS256',
    "public_jwk" JSONB NOT NULL,
    "private_jwk_encrypted" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMP(3),
    "publish_until" TIMESTAMP(3),

    CONSTRAINT "oidc_signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_email_key" ON "accounts"("email");

-- CreateIndex
CREATE INDEX "account_login_codes_interaction_id_created_at_idx" ON "account_login_codes"("interaction_id", "created_at");

-- CreateIndex
CREATE INDEX "account_login_codes_email_created_at_idx" ON "account_login_codes"("email", "created_at");

-- CreateIndex
CREATE INDEX "account_login_codes_request_ip_created_at_idx" ON "account_login_codes"("request_ip", "created_at");

-- CreateIndex
CREATE INDEX "account_login_codes_expires_at_idx" ON "account_login_codes"("expires_at");

-- CreateIndex
CREATE INDEX "oidc_interactions_expires_at_idx" ON "oidc_interactions"("expires_at");

-- CreateIndex
CREATE INDEX "oidc_grants_account_id_app_id_idx" ON "oidc_grants"("account_id", "app_id");

-- CreateIndex
CREATE INDEX "oidc_grants_expires_at_idx" ON "oidc_grants"("expires_at");

-- CreateIndex
CREATE INDEX "oidc_authorization_codes_grant_id_idx" ON "oidc_authorization_codes"("grant_id");

-- CreateIndex
CREATE INDEX "oidc_authorization_codes_expires_at_idx" ON "oidc_authorization_codes"("expires_at");

-- CreateIndex
CREATE INDEX "oidc_refresh_tokens_grant_id_idx" ON "oidc_refresh_tokens"("grant_id");

-- CreateIndex
CREATE INDEX "oidc_access_tokens_grant_id_idx" ON "oidc_access_tokens"("grant_id");

-- CreateIndex
CREATE INDEX "oidc_access_tokens_expires_at_idx" ON "oidc_access_tokens"("expires_at");

-- CreateIndex
CREATE INDEX "oidc_signing_keys_status_idx" ON "oidc_signing_keys"("status");

-- CreateIndex
CREATE INDEX "sessions_account_id_status_idx" ON "sessions"("account_id", "status");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_login_codes" ADD CONSTRAINT "account_login_codes_interaction_id_fkey" FOREIGN KEY ("interaction_id") REFERENCES "oidc_interactions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_interactions" ADD CONSTRAINT "oidc_interactions_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_grants" ADD CONSTRAINT "oidc_grants_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_grants" ADD CONSTRAINT "oidc_grants_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_authorization_codes" ADD CONSTRAINT "oidc_authorization_codes_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oidc_grants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_refresh_tokens" ADD CONSTRAINT "oidc_refresh_tokens_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oidc_grants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oidc_access_tokens" ADD CONSTRAINT "oidc_access_tokens_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oidc_grants"("id") ON DELETE CASCADE ON UPDATE CASCADE;


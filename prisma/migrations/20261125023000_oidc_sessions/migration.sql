-- CreateTable
CREATE TABLE "oidc_sessions" (
    "id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "auth_time" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oidc_sessions_secret_hash_key" ON "oidc_sessions"("secret_hash");

-- CreateIndex
CREATE INDEX "oidc_sessions_account_id_idx" ON "oidc_sessions"("account_id");

-- CreateIndex
CREATE INDEX "oidc_sessions_expires_at_idx" ON "oidc_sessions"("expires_at");

-- AddForeignKey
ALTER TABLE "oidc_sessions" ADD CONSTRAINT "oidc_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "face_sign_in_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "face_sign_in_locked_until" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "account_proofs" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL DEFAULT '',
    "source_session_id" TEXT,
    "verified_at" TIMESTAMPTZ(3) NOT NULL,
    "valid_until" TIMESTAMPTZ(3),
    "sealed" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_proofs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_shares" (
    "account_id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "first_shared_at" TIMESTAMPTZ(3) NOT NULL,
    "last_shared_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "account_shares_pkey" PRIMARY KEY ("account_id","app_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_proofs_account_id_kind_key_key" ON "account_proofs"("account_id", "kind", "key");

-- CreateIndex
CREATE INDEX "account_shares_app_id_idx" ON "account_shares"("app_id");

-- AddForeignKey
ALTER TABLE "account_proofs" ADD CONSTRAINT "account_proofs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_shares" ADD CONSTRAINT "account_shares_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_shares" ADD CONSTRAINT "account_shares_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;


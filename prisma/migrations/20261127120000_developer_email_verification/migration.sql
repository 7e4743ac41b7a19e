-- AlterTable
ALTER TABLE "developers" ADD COLUMN     "email_verified_at" TIMESTAMPTZ(3);

-- Accounts made before verification existed already hold their welcome credit: they count as verified.
UPDATE "developers" SET "email_verified_at" = "created_at";

-- CreateTable
CREATE TABLE "developer_email_verifications" (
    "id" TEXT NOT NULL,
    "developer_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "developer_email_verifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "developer_email_verifications_token_hash_key" ON "developer_email_verifications"("token_hash");

-- CreateIndex
CREATE INDEX "developer_email_verifications_developer_id_idx" ON "developer_email_verifications"("developer_id");

-- AddForeignKey
ALTER TABLE "developer_email_verifications" ADD CONSTRAINT "developer_email_verifications_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;


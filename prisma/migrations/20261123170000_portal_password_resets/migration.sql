-- AlterTable
ALTER TABLE "developers" ADD COLUMN     "password_changed_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "developer_password_resets" (
    "id" TEXT NOT NULL,
    "developer_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "developer_password_resets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "developer_password_resets_token_hash_key" ON "developer_password_resets"("token_hash");

-- CreateIndex
CREATE INDEX "developer_password_resets_developer_id_idx" ON "developer_password_resets"("developer_id");

-- AddForeignKey
ALTER TABLE "developer_password_resets" ADD CONSTRAINT "developer_password_resets_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;


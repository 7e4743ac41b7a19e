-- AlterTable
ALTER TABLE "workflows" ADD COLUMN     "purpose" TEXT NOT NULL DEFAULT 'verification';

-- CreateTable
CREATE TABLE "recovery_requests" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "member_id" TEXT,
    "variant" TEXT NOT NULL,
    "eligible" BOOLEAN NOT NULL,
    "session_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "recovery_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "recovery_requests_session_id_key" ON "recovery_requests"("session_id");

-- CreateIndex
CREATE INDEX "recovery_requests_organization_id_created_at_idx" ON "recovery_requests"("organization_id", "created_at");


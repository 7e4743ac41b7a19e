-- AlterTable
ALTER TABLE "accounts" DROP COLUMN "face_sign_in_failures",
DROP COLUMN "face_sign_in_locked_until";

-- CreateTable
CREATE TABLE "face_sign_in_throttles" (
    "email_hash" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "face_sign_in_throttles_pkey" PRIMARY KEY ("email_hash")
);


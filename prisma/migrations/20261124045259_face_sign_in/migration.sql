-- AlterTable
ALTER TABLE "oidc_interactions" ADD COLUMN     "pending_method" TEXT NOT NULL DEFAULT 'code';

-- CreateTable
CREATE TABLE "face_sign_in_challenges" (
    "id" TEXT NOT NULL,
    "interaction_id" TEXT NOT NULL,
    "actions" TEXT[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "face_sign_in_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "face_sign_in_challenges_interaction_id_created_at_idx" ON "face_sign_in_challenges"("interaction_id", "created_at");

-- AddForeignKey
ALTER TABLE "face_sign_in_challenges" ADD CONSTRAINT "face_sign_in_challenges_interaction_id_fkey" FOREIGN KEY ("interaction_id") REFERENCES "oidc_interactions"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- AlterTable
ALTER TABLE "check_results" ADD COLUMN     "evidence" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "liveness_challenges" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "actions" TEXT[],
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "liveness_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_artifacts" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "sealed" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_artifacts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "face_identities" (
    "id" TEXT NOT NULL,
    "account_id" TEXT,
    "embedding" REAL[],
    "model" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "face_identities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "face_enrollments" (
    "id" TEXT NOT NULL,
    "face_id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "session_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unlinked_at" TIMESTAMP(3),

    CONSTRAINT "face_enrollments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "liveness_challenges_session_id_created_at_idx" ON "liveness_challenges"("session_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "session_artifacts_session_id_kind_key" ON "session_artifacts"("session_id", "kind");

-- CreateIndex
CREATE INDEX "face_identities_account_id_idx" ON "face_identities"("account_id");

-- CreateIndex
CREATE INDEX "face_enrollments_app_id_status_idx" ON "face_enrollments"("app_id", "status");

-- CreateIndex
CREATE INDEX "face_enrollments_face_id_status_idx" ON "face_enrollments"("face_id", "status");

-- CreateIndex
CREATE INDEX "face_enrollments_session_id_idx" ON "face_enrollments"("session_id");

-- AddForeignKey
ALTER TABLE "liveness_challenges" ADD CONSTRAINT "liveness_challenges_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "session_artifacts" ADD CONSTRAINT "session_artifacts_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "face_enrollments" ADD CONSTRAINT "face_enrollments_face_id_fkey" FOREIGN KEY ("face_id") REFERENCES "face_identities"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "face_enrollments" ADD CONSTRAINT "face_enrollments_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;


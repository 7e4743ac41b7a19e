-- CreateTable
CREATE TABLE "credential_lookups" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credential_lookups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "credential_lookups_session_id_idx" ON "credential_lookups"("session_id");

-- AddForeignKey
ALTER TABLE "credential_lookups" ADD CONSTRAINT "credential_lookups_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;


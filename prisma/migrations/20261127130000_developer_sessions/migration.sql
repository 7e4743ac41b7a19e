-- Server-side records of developer portal sign-ins (README "Developer
-- portal"): the next-auth cookie carries the row's id and is trusted only
-- while the row is live, so sign-out, a password change or a removal ends a
-- session at once. Cookies issued before this migration carry no id and are
-- refused: their developers sign in again.

-- CreateTable
CREATE TABLE "developer_sessions" (
    "id" TEXT NOT NULL,
    "developer_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "developer_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "developer_sessions_developer_id_idx" ON "developer_sessions"("developer_id");

-- CreateIndex
CREATE INDEX "developer_sessions_expires_at_idx" ON "developer_sessions"("expires_at");

-- AddForeignKey
ALTER TABLE "developer_sessions" ADD CONSTRAINT "developer_sessions_developer_id_fkey" FOREIGN KEY ("developer_id") REFERENCES "developers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

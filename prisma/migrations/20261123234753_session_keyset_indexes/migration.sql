-- Keyset pages on (created_at, id) for the session lists (API, portal, review queue) and a session's audit trail (portal).

-- DropIndex
DROP INDEX "sessions_app_id_created_at_idx";

-- DropIndex
DROP INDEX "sessions_app_id_status_created_at_idx";

-- DropIndex
DROP INDEX "sessions_app_id_vendor_data_created_at_idx";

-- CreateIndex
CREATE INDEX "audit_logs_app_id_target_created_at_idx" ON "audit_logs"("app_id", "target", "created_at");

-- CreateIndex
CREATE INDEX "sessions_app_id_created_at_id_idx" ON "sessions"("app_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "sessions_app_id_status_created_at_id_idx" ON "sessions"("app_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "sessions_app_id_vendor_data_created_at_id_idx" ON "sessions"("app_id", "vendor_data", "created_at", "id");


-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "workflow_id" TEXT NOT NULL,
    "workflow_snapshot" JSONB NOT NULL,
    "features" TEXT[],
    "status" TEXT NOT NULL DEFAULT 'NOT_STARTED',
    "vendor_data" TEXT,
    "redirect_url" TEXT,
    "callback_url" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "session_token_hash" TEXT NOT NULL,
    "account_id" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),
    "decided_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "check_results" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "data" JSONB NOT NULL DEFAULT '{}',
    "error" JSONB,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "check_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "app_id" TEXT NOT NULL,
    "session_id" TEXT,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "target_url" TEXT,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMP(3),

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sessions_session_token_hash_key" ON "sessions"("session_token_hash");

-- CreateIndex
CREATE INDEX "sessions_app_id_created_at_idx" ON "sessions"("app_id", "created_at");

-- CreateIndex
CREATE INDEX "sessions_app_id_status_created_at_idx" ON "sessions"("app_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "sessions_app_id_vendor_data_created_at_idx" ON "sessions"("app_id", "vendor_data", "created_at");

-- CreateIndex
CREATE INDEX "sessions_status_expires_at_idx" ON "sessions"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "check_results_session_id_type_key" ON "check_results"("session_id", "type");

-- CreateIndex
CREATE INDEX "webhook_events_state_created_at_idx" ON "webhook_events"("state", "created_at");

-- CreateIndex
CREATE INDEX "webhook_events_app_id_created_at_idx" ON "webhook_events"("app_id", "created_at");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_workflow_id_fkey" FOREIGN KEY ("workflow_id") REFERENCES "workflows"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "check_results" ADD CONSTRAINT "check_results_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;


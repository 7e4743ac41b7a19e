-- The worker's claim (lib/webhooks/worker.ts claimDueDeliveries) also caps
-- each app's deliveries in flight (WEBHOOK_CONCURRENCY_PER_APP), counting the
-- app's live leases through this index: in time that grows with the app's
-- pending deliveries, not with its delivery history.
-- CreateIndex
CREATE INDEX "webhook_deliveries_state_app_id_locked_until_idx" ON "webhook_deliveries"("state", "app_id", "locked_until");

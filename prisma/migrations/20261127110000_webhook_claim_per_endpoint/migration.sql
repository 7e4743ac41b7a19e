-- The worker's claim (lib/webhooks/worker.ts claimDueDeliveries) walks the
-- endpoints that have pending deliveries and takes each one's oldest due
-- deliveries up to its free slots (WEBHOOK_CONCURRENCY_PER_ENDPOINT), counting
-- its live leases: through these indexes, in time that grows with the number
-- of endpoints with pending deliveries, not with one endpoint's backlog.
-- CreateIndex
CREATE INDEX "webhook_deliveries_state_endpoint_id_next_attempt_at_idx" ON "webhook_deliveries"("state", "endpoint_id", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_state_endpoint_id_locked_until_idx" ON "webhook_deliveries"("state", "endpoint_id", "locked_until");


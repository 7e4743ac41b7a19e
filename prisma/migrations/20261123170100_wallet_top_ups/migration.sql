-- Wallet top-ups paid through Stripe Checkout (lib/billing/create-top-up-checkout.ts).

-- CreateTable
CREATE TABLE "top_ups" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "stripe_checkout_session_id" TEXT,
    "checkout_url" TEXT,
    "stripe_event_id" TEXT,
    "ledger_entry_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "top_ups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "top_ups_stripe_checkout_session_id_key" ON "top_ups"("stripe_checkout_session_id");

-- CreateIndex
CREATE UNIQUE INDEX "top_ups_ledger_entry_id_key" ON "top_ups"("ledger_entry_id");

-- CreateIndex
CREATE INDEX "top_ups_organization_id_created_at_idx" ON "top_ups"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_ledger_entry_id_fkey" FOREIGN KEY ("ledger_entry_id") REFERENCES "ledger_entries"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- One welcome credit per mailbox (README "Billing"): the keyed hash of each
-- credited normalised mailbox, unique. No foreign key: a grant outlives its
-- organization.

-- CreateTable
CREATE TABLE "welcome_credit_grants" (
    "id" TEXT NOT NULL,
    "mailbox_hash" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "welcome_credit_grants_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "welcome_credit_grants_mailbox_hash_key" ON "welcome_credit_grants"("mailbox_hash");

-- AlterTable
ALTER TABLE "members" ADD COLUMN     "activated_at" TIMESTAMPTZ(3),
ADD COLUMN     "activation_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "activation_token_hash" TEXT,
ADD COLUMN     "deactivated_at" TIMESTAMPTZ(3),
ADD COLUMN     "invite_method" TEXT NOT NULL DEFAULT 'none',
ADD COLUMN     "link_sent_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "member_activation_challenges" (
    "id" TEXT NOT NULL,
    "member_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "actions" TEXT[],
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "member_activation_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "org_subscriptions" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'seats',
    "price_per_seat_cents" INTEGER NOT NULL,
    "trial_ends_at" TIMESTAMPTZ(3) NOT NULL,
    "current_period_start" TIMESTAMPTZ(3) NOT NULL,
    "current_period_end" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "org_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "seat_invoices" (
    "id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "period_end" TIMESTAMPTZ(3) NOT NULL,
    "seats" INTEGER NOT NULL,
    "price_per_seat_cents" INTEGER NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "paid_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "seat_invoices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "member_activation_challenges_member_id_token_hash_idx" ON "member_activation_challenges"("member_id", "token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "org_subscriptions_organization_id_key" ON "org_subscriptions"("organization_id");

-- CreateIndex
CREATE INDEX "seat_invoices_organization_id_period_start_idx" ON "seat_invoices"("organization_id", "period_start");

-- CreateIndex
CREATE UNIQUE INDEX "seat_invoices_subscription_id_period_start_key" ON "seat_invoices"("subscription_id", "period_start");

-- CreateIndex
CREATE UNIQUE INDEX "members_activation_token_hash_key" ON "members"("activation_token_hash");

-- CreateIndex
CREATE INDEX "members_organization_id_role_created_at_idx" ON "members"("organization_id", "role", "created_at");

-- CreateIndex
CREATE INDEX "members_organization_id_status_idx" ON "members"("organization_id", "status");

-- AddForeignKey
ALTER TABLE "member_activation_challenges" ADD CONSTRAINT "member_activation_challenges_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "members"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "org_subscriptions" ADD CONSTRAINT "org_subscriptions_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "seat_invoices" ADD CONSTRAINT "seat_invoices_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "org_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Members bound before this migration were activated when last changed.
UPDATE "members" SET "activated_at" = "updated_at" WHERE "status" = 'active' AND "activated_at" IS NULL;
UPDATE "members" SET "deactivated_at" = "updated_at" WHERE "status" = 'deactivated' AND "deactivated_at" IS NULL;

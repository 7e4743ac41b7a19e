-- AlterTable
ALTER TABLE "webhook_attempts" ADD COLUMN     "ended_at" TIMESTAMPTZ(3),
ADD COLUMN     "outcome" TEXT,
ALTER COLUMN "duration_ms" DROP NOT NULL;


-- Attempts recorded before this migration were written once finished.
UPDATE "webhook_attempts"
   SET "outcome" = CASE WHEN "status_code" BETWEEN 200 AND 299 THEN 'succeeded' ELSE 'failed' END
 WHERE "outcome" IS NULL;

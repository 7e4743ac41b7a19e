-- AlterTable
ALTER TABLE "face_identities" ADD COLUMN     "search_code" BYTEA,
ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateTable
CREATE TABLE "face_index_changes" (
    "id" BIGSERIAL NOT NULL,
    "face_seq" BIGINT NOT NULL,
    "xid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "face_index_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "face_index_changes_xid_idx" ON "face_index_changes"("xid");

-- CreateIndex
CREATE INDEX "face_index_changes_created_at_idx" ON "face_index_changes"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "face_identities_seq_key" ON "face_identities"("seq");


-- The pgvector copy of the templates is no longer used: the 1:N search runs
-- on the in-memory Hamming index on every database (lib/faces/gallery-index.ts).
ALTER TABLE "face_identities" DROP COLUMN IF EXISTS "embedding_vec";

-- The log is only ever read by a narrow xid range (the transactions of the
-- last moments): never start parallel workers for it (their start-up alone
-- cost 10 ms a search when the planner guessed a third of the table).
ALTER TABLE "face_index_changes" SET (parallel_workers = 0);

-- Every change that can alter a project's set of searchable faces leaves the
-- face's seq in face_index_changes, stamped with this transaction's id, so
-- every instance's in-memory index follows the database. Existing templates
-- get their search codes from `npm run db:migrate` / server start
-- (lib/faces/backfill-search-codes.ts): the code is computed in JavaScript.
CREATE FUNCTION "face_index_log_identity"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "face_index_changes" ("face_seq") VALUES (OLD."seq");
  RETURN NULL;
END $$;

CREATE TRIGGER "face_identities_index_log"
  AFTER DELETE OR UPDATE OF "search_code", "seq" ON "face_identities"
  FOR EACH ROW EXECUTE FUNCTION "face_index_log_identity"();

CREATE FUNCTION "face_index_log_enrollment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- OLD is null on INSERT and NEW on DELETE; a face deleted with its
  -- enrollments (ON DELETE CASCADE) is logged by face_identities_index_log.
  INSERT INTO "face_index_changes" ("face_seq")
    SELECT f."seq" FROM "face_identities" f WHERE f."id" IN (OLD."face_id", NEW."face_id");
  RETURN NULL;
END $$;

CREATE TRIGGER "face_enrollments_index_log"
  AFTER INSERT OR DELETE OR UPDATE OF "status", "app_id", "face_id" ON "face_enrollments"
  FOR EACH ROW EXECUTE FUNCTION "face_index_log_enrollment"();

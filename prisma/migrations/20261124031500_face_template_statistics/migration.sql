-- No planner statistics for the face templates and search codes: nothing
-- filters or sorts on them, and ANALYZE of a 1,024-element real[] computes
-- per-element frequencies over its whole 30,000-row sample (seconds per
-- run). The embedded database analyzes at every server start and after
-- bulk changes (lib/db/planner-statistics.ts); PostgreSQL's autovacuum does
-- the same.
ALTER TABLE "face_identities" ALTER COLUMN "embedding" SET STATISTICS 0;
ALTER TABLE "face_identities" ALTER COLUMN "search_code" SET STATISTICS 0;

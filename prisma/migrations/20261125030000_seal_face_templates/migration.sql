-- Face templates and their 1:N search codes are sealed at rest (README
-- "Secrets and personal data at rest"). Sealing is AES-256-GCM in JavaScript
-- (lib/crypto/encryption.ts), so SQL cannot do it: the templates stored so far
-- move to face_templates_to_seal, and the migration runner seals them into
-- face_identities.template_sealed, with their sealed search codes, at the
-- next start (lib/faces/sealed-faces.ts sealStoredFaceTemplates), then
-- empties that table. Checking an empty table is all later starts cost.

-- CreateTable
CREATE TABLE "face_templates_to_seal" (
    "face_id" TEXT NOT NULL,
    "embedding" REAL[],

    CONSTRAINT "face_templates_to_seal_pkey" PRIMARY KEY ("face_id")
);

INSERT INTO "face_templates_to_seal" ("face_id", "embedding")
  SELECT "id", "embedding" FROM "face_identities" WHERE "embedding" IS NOT NULL;
-- A code without a template (none is expected) could never be sealed from it.
UPDATE "face_identities" SET "search_code" = NULL WHERE "embedding" IS NULL AND "search_code" IS NOT NULL;

-- AlterTable
ALTER TABLE "face_identities" DROP COLUMN "embedding",
ADD COLUMN     "template_sealed" BYTEA;

-- As for the clear templates (migration 20261124031500): no planner
-- statistics, nothing filters on it. Sealed bytes do not compress: stored
-- out of line without trying.
ALTER TABLE "face_identities" ALTER COLUMN "template_sealed" SET STATISTICS 0;
ALTER TABLE "face_identities" ALTER COLUMN "template_sealed" SET STORAGE EXTERNAL;

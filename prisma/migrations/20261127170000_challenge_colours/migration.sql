-- The colour challenge (README "Liveness: the colour challenge"): the screen
-- colours drawn for each liveness challenge, one per burst frame, kept with
-- the challenge so the verdict reads the server's copy. Empty: no colours
-- (the photosensitive alternative, or a challenge issued before this column).

-- AlterTable
ALTER TABLE "liveness_challenges" ADD COLUMN     "colours" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "face_sign_in_challenges" ADD COLUMN     "colours" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "member_activation_challenges" ADD COLUMN     "colours" TEXT[] DEFAULT ARRAY[]::TEXT[];

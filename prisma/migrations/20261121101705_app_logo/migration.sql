-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "logo" TEXT;


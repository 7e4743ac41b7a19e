-- The language of a session's hosted pages, when the app asks for one
-- (`language` on POST /api/v2/session, issue 35): one of the supported
-- languages (lib/i18n/locales.ts), null for the browser's choice.

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "language" TEXT;

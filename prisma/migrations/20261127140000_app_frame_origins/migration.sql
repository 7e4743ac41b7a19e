-- The origins whose pages may show an app's hosted verification page in a
-- frame (Content-Security-Policy frame-ancestors, proxy.ts). Empty: none may.

-- AlterTable
ALTER TABLE "apps" ADD COLUMN     "frame_origins" TEXT[] DEFAULT ARRAY[]::TEXT[];


-- CreateTable
CREATE TABLE "key_material" (
    "purpose" TEXT NOT NULL,
    "sealed" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "key_material_pkey" PRIMARY KEY ("purpose")
);

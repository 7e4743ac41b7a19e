-- CreateTable
CREATE TABLE "registry_providers" (
    "code" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "state_code" TEXT NOT NULL,
    "issuing_authority" TEXT NOT NULL,
    "required_fields" TEXT[],
    "source_sha256" TEXT NOT NULL,
    "licence_count" INTEGER NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "registry_providers_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "registry_credentials" (
    "code" TEXT NOT NULL,
    "provider_code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "remote_code" TEXT NOT NULL,

    CONSTRAINT "registry_credentials_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "registry_licences" (
    "id" BIGSERIAL NOT NULL,
    "provider_code" TEXT NOT NULL,
    "credential_code" TEXT NOT NULL,
    "number_key" TEXT NOT NULL,
    "last_name_key" TEXT NOT NULL,
    "sealed" BYTEA NOT NULL,

    CONSTRAINT "registry_licences_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "registry_providers_state_code_idx" ON "registry_providers"("state_code");

-- CreateIndex
CREATE UNIQUE INDEX "registry_credentials_provider_code_remote_code_key" ON "registry_credentials"("provider_code", "remote_code");

-- CreateIndex
CREATE INDEX "registry_licences_provider_code_number_key_idx" ON "registry_licences"("provider_code", "number_key");

-- CreateIndex
CREATE INDEX "registry_licences_provider_code_last_name_key_idx" ON "registry_licences"("provider_code", "last_name_key");

-- AddForeignKey
ALTER TABLE "registry_credentials" ADD CONSTRAINT "registry_credentials_provider_code_fkey" FOREIGN KEY ("provider_code") REFERENCES "registry_providers"("code") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "registry_licences" ADD CONSTRAINT "registry_licences_provider_code_fkey" FOREIGN KEY ("provider_code") REFERENCES "registry_providers"("code") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "registry_licences" ADD CONSTRAINT "registry_licences_credential_code_fkey" FOREIGN KEY ("credential_code") REFERENCES "registry_credentials"("code") ON DELETE CASCADE ON UPDATE CASCADE;


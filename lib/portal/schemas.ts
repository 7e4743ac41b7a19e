import { z } from "zod";
import { AppEnvironmentSchema, AppNameSchema, EmailSchema, PasswordSchema, ScopesSchema } from "@/lib/tenancy/schemas";

/**
 * Bodies of the portal's JSON routes (app/api/portal). The forms validate
 * with the same schemas the API and the CLI use (lib/tenancy/schemas.ts).
 */
export const SignUpBody = z.strictObject({
  email: EmailSchema,
  password: PasswordSchema,
  name: z.string().trim().max(120).optional(),
  organization_name: z.string().trim().max(120).optional(),
});

export const EnvironmentQuery = z.object({ environment: AppEnvironmentSchema.default("test") });

export const CreateAppBody = z.strictObject({ name: AppNameSchema, environment: AppEnvironmentSchema });

/**
 * Rename (the name is checked by renameApp: 400 invalid_client_metadata),
 * (de)activate and/or replace the origins that may frame the hosted page
 * (checked by setFrameOrigins against the app's environment).
 */
export const UpdateAppBody = z.strictObject({ name: z.unknown().optional(), is_active: z.boolean().optional(), frame_origins: z.unknown().optional() });

export const ApiKeyNameSchema = z.string().trim().min(1, "Name is required").max(60, "Name must be 1 to 60 characters");
export const CreateApiKeyBody = z.strictObject({ name: ApiKeyNameSchema });

export const RedirectUriBody = z.strictObject({ uri: z.string().max(2000) });
export const UpdateOidcBody = z.strictObject({ scopes: ScopesSchema.optional(), active: z.boolean().optional() });

export const LedgerQuery = z.object({ cursor: z.string().max(500).optional() });

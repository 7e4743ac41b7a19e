import type { Operation } from "@/lib/http/operation";
import { HEALTH_OPERATIONS } from "./health";
import { HOSTED_FLOW_OPERATIONS } from "./hosted-flow";
import { OIDC_OPERATIONS } from "./oidc";
import { ORGANIZATION_OPERATIONS } from "./organization";
import { REFERENCE_OPERATIONS } from "./reference";
import { VERIFICATION_OPERATIONS } from "./verification";

/** Every documented operation, surface by surface (one file each). */
export const API_OPERATIONS: readonly Operation[] = [
  ...VERIFICATION_OPERATIONS,
  ...HOSTED_FLOW_OPERATIONS,
  ...OIDC_OPERATIONS,
  ...ORGANIZATION_OPERATIONS,
  ...HEALTH_OPERATIONS,
  ...REFERENCE_OPERATIONS,
];

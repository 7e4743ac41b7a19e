import { z } from "zod";
import { operations } from "../operation";

/** GET /api/health and /api/health/live. */
export const HEALTH_OPERATIONS = operations([
  {
    method: "get",
    path: "/api/health/live",
    operationId: "liveness",
    summary: "Liveness probe",
    description: "Touches nothing; answers while the process serves requests.",
    tag: "Health",
    auth: "none",
    rateLimited: false,
    success: { status: 200, description: "The process is up.", schema: z.object({ status: z.literal("ok") }) },
    errors: [],
  },
  {
    method: "get",
    path: "/api/health",
    operationId: "readiness",
    summary: "Readiness: database, Redis, workers",
    tag: "Health",
    auth: "none",
    success: [
      { status: 200, description: "Ready.", schema: z.looseObject({ status: z.string() }) },
    ],
    errors: ["service_unavailable"],
  },
]);

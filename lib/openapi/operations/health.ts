import { z } from "zod";
import { operation, operations } from "@/lib/http/operation";

/** GET /api/health and /api/health/live. */
export const liveness = operation({
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
  });

export const readiness = operation({
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
  });

export const HEALTH_OPERATIONS = operations([
  liveness,
  readiness,
]);

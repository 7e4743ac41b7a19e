import { z } from "zod";
import type { Session } from "@/generated/prisma/client";
import { sealLocationData } from "@/lib/sessions/location-fix";
import { locationVerdict, type GeoFix } from "@/lib/checks/location-verdict";
import { ApiError } from "@/lib/http/api-error";
import { recordCheckResult } from "@/lib/sessions/record-check";
import type { WorkflowSnapshot } from "@/lib/sessions/present";

/**
 * POST /api/v2/location body: the browser's fix, or why there is none
 * (permission blocked, position unavailable, timeout): spec 2.2 rule 1 then
 * fails the check.
 */
export const LocationBody = z
  .strictObject({
    lat: z.number().min(-90).max(90).optional(),
    lng: z.number().min(-180).max(180).optional(),
    accuracy_m: z.number().min(0).max(1_000_000).optional(),
    error: z.enum(["permission_denied", "position_unavailable", "timeout"]).optional(),
  })
  .refine((b) => (b.lat === undefined) === (b.lng === undefined), { message: "lat and lng go together", path: ["lng"] });

/** Runs the location check of spec 2.2 for this session and records it (billed once). */
export async function submitLocation(session: Session, body: z.infer<typeof LocationBody>) {
  if (!session.features.includes("location")) {
    throw new ApiError("invalid_request", { message: "This session has no location step" });
  }
  const metadata = session.metadata as { expected_lat?: number; expected_lng?: number; radius_m?: number };
  const settings = (session.workflowSnapshot as WorkflowSnapshot).settings.location;
  const fix: GeoFix | null =
    body.error || body.lat === undefined || body.lng === undefined
      ? null
      : { lat: body.lat, lng: body.lng, accuracy_m: body.accuracy_m };
  const verdict = locationVerdict(fix, {
    expected_lat: metadata.expected_lat,
    expected_lng: metadata.expected_lng,
    radius_m: metadata.radius_m ?? settings?.default_radius_m ?? null,
  });
  const error = verdict.error && body.error ? { ...verdict.error, reason: body.error } : verdict.error;
  // A location check always decides: passed in range, failed otherwise (unreadable included).
  const status = verdict.status as "passed" | "failed";
  await recordCheckResult({
    sessionId: session.id,
    type: "location",
    status,
    // The fix is personal data: stored sealed (lib/sessions/location-fix.ts), opened again for the decision.
    data: sealLocationData({ ...verdict.data, ...(fix?.accuracy_m !== undefined ? { accuracy_m: fix.accuracy_m } : {}) }),
    error,
  });
  return { type: "location" as const, status, data: verdict.data, error };
}

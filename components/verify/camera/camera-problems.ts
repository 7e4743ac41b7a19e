/**
 * Why the camera could not start, in the cases people keep running into:
 * permission denied, no camera, camera in use by another app, a page that is
 * not https, a page embedded in an iframe without `allow="camera"`, a camera
 * that cannot satisfy the constraints, a browser without getUserMedia.
 */
export type CameraProblem =
  | "permission_denied"
  | "not_found"
  | "in_use"
  | "insecure_context"
  | "blocked_by_embedding"
  | "overconstrained"
  | "unsupported"
  | "unknown";

/** The problems another device gets round (no camera says so itself; an https page, an iframe or a blocked permission is fixed here). */
const OTHER_DEVICE_HELPS: ReadonlySet<CameraProblem> = new Set(["overconstrained", "unsupported", "unknown"]);

/**
 * Whether to point to the QR hand-off after explaining `problem`: only on a
 * page that offers it (the hosted flow on a desktop), never on a phone
 * (issue 33 item 20: a phone is not told to continue on a phone).
 */
export function suggestsHandoff(problem: CameraProblem, where: { phone: boolean; handoff: boolean }): boolean {
  return where.handoff && !where.phone && OTHER_DEVICE_HELPS.has(problem);
}

export class CameraError extends Error {
  constructor(readonly problem: CameraProblem, readonly cause?: unknown) {
    super(problem);
    this.name = "CameraError";
  }
}

type PolicyDocument = Document & {
  featurePolicy?: { allowsFeature(feature: string): boolean };
  permissionsPolicy?: { allowsFeature(feature: string): boolean };
};

export function isEmbedded(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true; // a cross-origin parent: reading window.top threw
  }
}

/** True when the page is in an iframe whose permissions policy forbids the camera (Chromium exposes the policy). */
export function cameraBlockedByEmbedding(): boolean {
  if (!isEmbedded()) return false;
  const policy = (document as PolicyDocument).permissionsPolicy ?? (document as PolicyDocument).featurePolicy;
  return policy ? !policy.allowsFeature("camera") : false;
}

/** Maps a getUserMedia rejection (a DOMException by name) to a problem the page explains. */
export function cameraProblemOf(err: unknown): CameraProblem {
  const name = err instanceof Error || (typeof err === "object" && err !== null && "name" in err) ? String((err as { name: unknown }).name) : "";
  switch (name) {
    case "NotAllowedError":
    case "PermissionDeniedError":
      return isEmbedded() && cameraBlockedByEmbedding() ? "blocked_by_embedding" : "permission_denied";
    case "SecurityError":
      if (!window.isSecureContext) return "insecure_context";
      return isEmbedded() ? "blocked_by_embedding" : "permission_denied";
    case "NotFoundError":
    case "DevicesNotFoundError":
      return "not_found";
    case "NotReadableError":
    case "TrackStartError":
    case "AbortError":
      return "in_use";
    case "OverconstrainedError":
    case "ConstraintNotSatisfiedError":
      return "overconstrained";
    case "TypeError":
      return "unsupported";
    default:
      return "unknown";
  }
}

import { CameraError, cameraBlockedByEmbedding, cameraProblemOf } from "./camera-problems";

export type Facing = "user" | "environment";

/**
 * Opens the camera: the front camera for selfies, the back one for documents
 * when there is one. Ideal (never exact) constraints, and a retry with no
 * constraints at all if the camera still refuses them. Throws `CameraError`.
 */
export async function openCamera(facing: Facing): Promise<MediaStream> {
  if (!window.isSecureContext) throw new CameraError("insecure_context");
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraError("unsupported");
  if (cameraBlockedByEmbedding()) throw new CameraError("blocked_by_embedding");
  const ideal: MediaStreamConstraints = {
    audio: false,
    video:
      facing === "user"
        ? { facingMode: { ideal: "user" }, width: { ideal: 1280 }, height: { ideal: 720 } }
        : { facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } },
  };
  try {
    return await navigator.mediaDevices.getUserMedia(ideal);
  } catch (err) {
    const problem = cameraProblemOf(err);
    if (problem !== "overconstrained") throw new CameraError(problem, err);
  }
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: false, video: true });
  } catch (err) {
    throw new CameraError(cameraProblemOf(err), err);
  }
}

export function stopCamera(stream: MediaStream | null | undefined) {
  stream?.getTracks().forEach((track) => track.stop());
}

export type CameraAvailability = "available" | "none" | "unknown" | "blocked_by_embedding" | "insecure_context" | "unsupported";

/**
 * Whether this device has a camera, without asking for permission (device
 * kinds are listed before any permission). A touch device that lists none is
 * reported `unknown`: some mobile browsers list nothing before permission.
 */
export async function cameraAvailability(): Promise<CameraAvailability> {
  if (!window.isSecureContext) return "insecure_context";
  if (!navigator.mediaDevices?.getUserMedia || !navigator.mediaDevices.enumerateDevices) return "unsupported";
  if (cameraBlockedByEmbedding()) return "blocked_by_embedding";
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    if (devices.some((d) => d.kind === "videoinput")) return "available";
    return navigator.maxTouchPoints > 0 ? "unknown" : "none";
  } catch {
    return "unknown";
  }
}

/** A desktop-like device (mouse, no touch): the QR handoff to a phone is worth offering. */
export function isDesktopLike(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(pointer: fine)").matches && navigator.maxTouchPoints === 0;
}

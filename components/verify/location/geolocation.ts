/**
 * One position fix from the browser, or why there is none, in the words the
 * server takes (`POST /api/v2/location` `{ error }`): permission_denied,
 * position_unavailable, timeout. `unsupported` (no Geolocation API) is sent
 * as position_unavailable.
 */
export type GeoOutcome =
  | { ok: true; lat: number; lng: number; accuracy_m: number }
  | { ok: false; reason: "permission_denied" | "position_unavailable" | "timeout" | "unsupported" };

export function locateOnce(timeoutMs = 20_000): Promise<GeoOutcome> {
  if (!("geolocation" in navigator)) return Promise.resolve({ ok: false, reason: "unsupported" });
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) =>
        resolve({
          ok: true,
          lat: position.coords.latitude,
          lng: position.coords.longitude,
          accuracy_m: Math.min(1_000_000, Math.max(0, position.coords.accuracy)),
        }),
      (error) =>
        resolve({
          ok: false,
          reason: error.code === error.PERMISSION_DENIED ? "permission_denied" : error.code === error.TIMEOUT ? "timeout" : "position_unavailable",
        }),
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 60_000 },
    );
  });
}

import type { CheckStatus } from "@/lib/sessions/statuses";

export type GeoFix = { lat: number; lng: number; accuracy_m?: number };
export type LocationExpectation = { expected_lat?: number; expected_lng?: number; radius_m?: number | null };

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres (haversine). */
export function haversineMeters(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export type LocationVerdict = {
  status: CheckStatus;
  data: { lat?: number; lng?: number; distance_m?: number; radius_m?: number | null; match: boolean | null };
  error: { code: string; message: string } | null;
};

/**
 * Spec 2.2 location semantics:
 * 1. no GPS fix (permission blocked, no coordinates) -> failed;
 * 2. expected point and radius -> passed inside, failed outside, match true/false;
 * 3. expected point without radius -> passed, match null, distance reported;
 * 4. no expected point -> capture only, passed with the coordinates.
 */
export function locationVerdict(fix: GeoFix | null, expected: LocationExpectation): LocationVerdict {
  if (!fix || !Number.isFinite(fix.lat) || !Number.isFinite(fix.lng)) {
    return {
      status: "failed",
      data: { match: null },
      error: { code: "location_unavailable", message: "No GPS fix: location permission blocked or coordinates missing" },
    };
  }
  const coords = { lat: fix.lat, lng: fix.lng };
  if (expected.expected_lat === undefined || expected.expected_lng === undefined) {
    return { status: "passed", data: { ...coords, match: null }, error: null };
  }
  const distance = Math.round(haversineMeters(coords, { lat: expected.expected_lat, lng: expected.expected_lng }) * 10) / 10;
  if (expected.radius_m === undefined || expected.radius_m === null) {
    return { status: "passed", data: { ...coords, distance_m: distance, match: null }, error: null };
  }
  const inside = distance <= expected.radius_m;
  return {
    status: inside ? "passed" : "failed",
    data: { ...coords, distance_m: distance, radius_m: expected.radius_m, match: inside },
    error: null,
  };
}

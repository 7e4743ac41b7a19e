import { describe, expect, it } from "vitest";
import { uniquenessOutcome } from "@/lib/checks/run-face-uniqueness";
import { resolveSettings } from "@/lib/workflows/settings";

describe("face uniqueness: how close the nearest enrolled face is decides", () => {
  const settings = { threshold: 0.68, decline_threshold: 0.79 };

  it("is unique under the threshold, a possible duplicate (review) up to decline_threshold, a duplicate from it", () => {
    expect(uniquenessOutcome(null, settings)).toBe("unique");
    expect(uniquenessOutcome(0.679, settings)).toBe("unique");
    expect(uniquenessOutcome(0.68, settings)).toBe("possible_duplicate");
    expect(uniquenessOutcome(0.789, settings)).toBe("possible_duplicate");
    expect(uniquenessOutcome(0.79, settings)).toBe("duplicate");
    expect(uniquenessOutcome(0.7, { threshold: 0.68, decline_threshold: 0.68 })).toBe("duplicate");
  });

  it("defaults decline_threshold to 0.79 and refuses one under the threshold", () => {
    expect(resolveSettings(["face_uniqueness"], {}).face_uniqueness).toEqual({ threshold: 0.68, decline_threshold: 0.79 });
    expect(() => resolveSettings(["face_uniqueness"], { face_uniqueness: { threshold: 0.8, decline_threshold: 0.7 } })).toThrow();
  });
});

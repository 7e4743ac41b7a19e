import { describe, expect, it } from "vitest";
import { isRecoverySession } from "@/lib/workflows/recovery-purpose";

describe("isRecoverySession", () => {
  it("is true only for the organization API's recovery workflows", () => {
    expect(isRecoverySession({ purpose: "recovery_with_id" })).toBe(true);
    expect(isRecoverySession({ purpose: "recovery_without_id" })).toBe(true);
    expect(isRecoverySession({ purpose: "verification" })).toBe(false);
    expect(isRecoverySession({ id: "w", features: [] })).toBe(false);
    expect(isRecoverySession(null)).toBe(false);
  });
});

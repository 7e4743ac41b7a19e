import { describe, expect, it } from "vitest";
import { ageInYears, ageVerdict } from "@/lib/documents/age-verdict";
import { pickActions } from "@/lib/liveness/challenges";

describe("age check", () => {
  const today = new Date("2026-11-21T12:00:00Z");
  it("counts whole years, the birthday itself included", () => {
    expect(ageInYears("2008-11-21", today)).toBe(18);
    expect(ageInYears("2008-11-22", today)).toBe(17);
    expect(ageInYears("2005-12-01", today)).toBe(20);
    expect(ageInYears("2008-02-29", new Date("2026-02-28T00:00:00Z"))).toBe(17);
    expect(ageInYears("2008-02-29", new Date("2026-03-01T00:00:00Z"))).toBe(18);
  });

  it("gives the bands and the workflow minimum, never the date", () => {
    const adult = ageVerdict("1990-04-12", 21, today);
    expect(adult).toEqual({ status: "passed", data: { is_18_plus: true, is_21_plus: true, minimum_age: 21, meets_minimum_age: true }, error: null });
    expect(JSON.stringify(adult)).not.toContain("1990");
    const nineteen = ageVerdict("2007-06-01", 21, today);
    expect(nineteen).toMatchObject({ status: "failed", data: { is_18_plus: true, is_21_plus: false, meets_minimum_age: false }, error: { code: "under_minimum_age" } });
    expect(ageVerdict("2007-06-01", 18, today).status).toBe("passed");
  });

  it("no readable date of birth fails with missing_dob", () => {
    expect(ageVerdict(null, 18, today)).toMatchObject({ status: "failed", error: { code: "missing_dob" } });
    expect(ageVerdict("12/04/1990", 18, today).error?.code).toBe("missing_dob");
  });
});

describe("liveness challenge actions", () => {
  it("never repeats an action back to back when there is a choice", () => {
    const seq = [0, 0, 0, 0];
    let i = 0;
    const random = () => seq[i++ % seq.length]!; // always the first allowed choice
    expect(pickActions(["turn_left", "turn_right", "blink"], 3, random)).toEqual(["turn_left", "turn_right", "turn_left"]);
  });

  it("repeats the only action when the workflow allows just one", () => {
    expect(pickActions(["blink"], 2)).toEqual(["blink", "blink"]);
  });
});

import { describe, expect, it } from "vitest";
import { suggestsHandoff, type CameraProblem } from "@/components/verify/camera/camera-problems";
import { keysOf, verifyMessages, verifyText } from "../support/verify-text";

/**
 * Issue 33 item 20: a camera problem never tells a phone to "continue on
 * your phone". The pointer to the QR hand-off is added only on a desktop
 * page that offers it, and only for problems another device gets round.
 */
const PROBLEMS: CameraProblem[] = keysOf(verifyMessages.camera.problems);

describe("the camera problem's pointer to the QR hand-off", () => {
  it("no problem's own text sends the person to a phone", () => {
    for (const problem of PROBLEMS) expect(verifyText(`camera.problems.${problem}.body`), problem).not.toMatch(/continue on your phone/i);
  });

  it("is never shown on a phone, nor where no hand-off is offered", () => {
    for (const problem of PROBLEMS) {
      expect(suggestsHandoff(problem, { phone: true, handoff: true }), problem).toBe(false);
      expect(suggestsHandoff(problem, { phone: false, handoff: false }), problem).toBe(false);
    }
  });

  it("is shown on a desktop that offers the hand-off, for a camera that is unsuitable or failing, not for a fix made on this page", () => {
    const shown = PROBLEMS.filter((problem) => suggestsHandoff(problem, { phone: false, handoff: true }));
    expect(shown.sort()).toEqual(["overconstrained", "unknown", "unsupported"]);
  });
});

import { describe, expect, it } from "vitest";
import { planInvite, statusAfterInvite } from "@/lib/org/invite-method";
import { activationTokenHash, newActivationLink } from "@/lib/org/activation-links";

describe("how an invitation goes out (README: Organization API)", () => {
  it.each([
    ["face", true, true, { method: "face", returnLink: true, email: true }, "link_sent"],
    ["face", false, true, { method: "face", returnLink: true, email: false }, "link_sent"],
    ["email", true, true, { method: "email", returnLink: false, email: true }, "invited"],
    ["email", false, true, { method: "none", returnLink: false, email: false }, "invited"],
    ["auto", true, true, { method: "email", returnLink: false, email: true }, "invited"],
    ["auto", false, true, { method: "face", returnLink: true, email: false }, "link_sent"],
    // Without a mail server nothing is ever emailed, whatever was asked.
    ["auto", true, false, { method: "face", returnLink: true, email: false }, "link_sent"],
    ["email", true, false, { method: "none", returnLink: false, email: false }, "invited"],
    ["face", true, false, { method: "face", returnLink: true, email: false }, "link_sent"],
  ] as const)("invite %s, notify %s, mail %s", (invite, notify, mail, plan, status) => {
    expect(planInvite(invite, notify, mail)).toEqual(plan);
    expect(statusAfterInvite(planInvite(invite, notify, mail))).toBe(status);
  });

  it("activation links: 7 days, random, looked up by hash; anything else is no token", () => {
    const at = new Date("2026-11-24T10:00:00Z");
    const a = newActivationLink(at);
    const b = newActivationLink(at);
    expect(a.token).not.toBe(b.token);
    expect(a.url).toMatch(/\/activate\/act_[A-Za-z0-9_-]{43}$/);
    expect(a.expiresAt.toISOString()).toBe("2026-12-01T10:00:00.000Z");
    expect(activationTokenHash(a.token)).toBe(a.tokenHash);
    expect(activationTokenHash("act_short")).toBeNull();
    expect(activationTokenHash(`${a.token}x`)).toBeNull();
  });
});

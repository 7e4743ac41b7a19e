import { describe, expect, it } from "vitest";
import { centsToAmount } from "@/lib/billing/money";
import { isPastDue } from "@/lib/org/billing/grace";
import { addMonthsClamped, formatPeriod, isTrialPeriod, nextPeriodEnd, trialEndsAt } from "@/lib/org/billing/periods";
import { SEAT_PRICE_CENTS, seatChargeCents } from "@/lib/org/billing/pricing";
import { subscriptionStatus } from "@/lib/org/billing/read-billing";

const d = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

describe("seat billing periods (calendar months from the trial end)", () => {
  it("the trial is 14 days, the first period", () => {
    const start = d("2026-01-17T10:20:30.400Z");
    expect(iso(trialEndsAt(start))).toBe("2026-01-31T10:20:30.400Z");
    expect(isTrialPeriod(trialEndsAt(start), trialEndsAt(start))).toBe(true);
    expect(isTrialPeriod(trialEndsAt(start), nextPeriodEnd(trialEndsAt(start), trialEndsAt(start)))).toBe(false);
  });

  it("adds a month on the same day and UTC time, clamped to the month's end", () => {
    expect(iso(addMonthsClamped(d("2026-03-15T08:00:00Z"), 1))).toBe("2026-04-15T08:00:00.000Z");
    expect(iso(addMonthsClamped(d("2026-01-31T23:59:59.999Z"), 1))).toBe("2026-02-28T23:59:59.999Z");
    expect(iso(addMonthsClamped(d("2028-01-31T12:00:00Z"), 1))).toBe("2028-02-29T12:00:00.000Z"); // leap year
    expect(iso(addMonthsClamped(d("2026-03-31T00:00:00Z"), 1))).toBe("2026-04-30T00:00:00.000Z");
    expect(iso(addMonthsClamped(d("2026-12-31T00:00:00Z"), 1))).toBe("2027-01-31T00:00:00.000Z"); // across the year
    expect(iso(addMonthsClamped(d("2026-01-31T00:00:00Z"), 13))).toBe("2027-02-28T00:00:00.000Z");
    expect(iso(addMonthsClamped(d("2026-01-31T00:00:00Z"), 0))).toBe("2026-01-31T00:00:00.000Z");
    expect(() => addMonthsClamped(d("2026-01-31T00:00:00Z"), 0.5)).toThrow(RangeError);
  });

  it("keeps anchoring on the trial end's day: Jan 31 -> Feb 28 -> Mar 31 -> Apr 30 -> May 31", () => {
    const anchor = d("2026-01-31T09:00:00Z");
    const ends: string[] = [];
    let end = anchor;
    for (let i = 0; i < 5; i++) {
      end = nextPeriodEnd(anchor, end);
      ends.push(iso(end).slice(0, 10));
    }
    expect(ends).toEqual(["2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30"]);
    // A leap February, then back to the 31st.
    const leap = d("2028-01-31T09:00:00Z");
    expect(iso(nextPeriodEnd(leap, nextPeriodEnd(leap, leap))).slice(0, 10)).toBe("2028-03-31");
    expect(iso(nextPeriodEnd(leap, leap)).slice(0, 10)).toBe("2028-02-29");
  });

  it("a period is an ISO 8601 interval", () => {
    expect(formatPeriod(d("2026-01-31T09:00:00Z"), d("2026-02-28T09:00:00Z"))).toBe("2026-01-31T09:00:00.000Z/2026-02-28T09:00:00.000Z");
  });
});

describe("seat amounts", () => {
  it("costs 0.99 USD per seat in whole cents, shown without floating-point drift", () => {
    expect(SEAT_PRICE_CENTS).toBe(99);
    expect(seatChargeCents(3, SEAT_PRICE_CENTS)).toBe(297);
    expect(centsToAmount(seatChargeCents(3, SEAT_PRICE_CENTS))).toBe(2.97); // 3 * 0.99 would be 2.9699999999999998
    expect(centsToAmount(seatChargeCents(7, SEAT_PRICE_CENTS))).toBe(6.93);
    expect(centsToAmount(seatChargeCents(1000, SEAT_PRICE_CENTS))).toBe(990);
    expect(seatChargeCents(0, SEAT_PRICE_CENTS)).toBe(0);
    expect(() => seatChargeCents(-1, SEAT_PRICE_CENTS)).toThrow(RangeError);
    expect(() => seatChargeCents(1.5, SEAT_PRICE_CENTS)).toThrow(RangeError);
  });
});

describe("grace and subscription status", () => {
  const created = d("2026-02-28T09:00:00Z");
  const trialEnd = d("2026-01-31T09:00:00Z");
  it("an invoice open for more than 7 days makes the organization past due", () => {
    expect(isPastDue(null, d("2030-01-01T00:00:00Z"))).toBe(false);
    expect(isPastDue(created, d("2026-03-07T09:00:00Z"))).toBe(false); // exactly 7 days: still in grace
    expect(isPastDue(created, d("2026-03-07T09:00:00.001Z"))).toBe(true);
  });
  it("trialing, then active, past_due after the grace", () => {
    expect(subscriptionStatus(trialEnd, null, d("2026-01-20T00:00:00Z"))).toBe("trialing");
    expect(subscriptionStatus(trialEnd, null, trialEnd)).toBe("active");
    expect(subscriptionStatus(trialEnd, created, d("2026-03-01T00:00:00Z"))).toBe("active");
    expect(subscriptionStatus(trialEnd, created, d("2026-03-08T00:00:00Z"))).toBe("past_due");
  });
});

/**
 * Billing periods of a seat subscription (docs/organization-api.md "Seats and billing"): the
 * trial is the first, free period ([start, start + 14 days]); after it,
 * calendar months anchored on the trial end: the same day of the month at
 * the same UTC time, clamped to the month's last day (Jan 31 -> Feb 28 or
 * 29 -> Mar 31: the anchor is never lost to a short month). Pure functions.
 */
export const TRIAL_DAYS = 14;
const DAY_MS = 86_400_000;

export function trialEndsAt(start: Date): Date {
  return new Date(start.getTime() + TRIAL_DAYS * DAY_MS);
}

function daysInMonthUtc(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** `anchor` plus `months` calendar months (UTC), its day of the month clamped to the target month's end. */
export function addMonthsClamped(anchor: Date, months: number): Date {
  if (!Number.isInteger(months)) throw new RangeError("months must be an integer");
  const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonthUtc(year, month));
  return new Date(
    Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()),
  );
}

/**
 * The end of the period that follows the one ending at `periodEnd`: the
 * first month boundary after it, counted from the trial end (the anchor),
 * so a period ending on a clamped day (Feb 28) is followed by the anchor's
 * own day again (Mar 31).
 */
export function nextPeriodEnd(trialEnd: Date, periodEnd: Date): Date {
  let months =
    (periodEnd.getUTCFullYear() - trialEnd.getUTCFullYear()) * 12 + (periodEnd.getUTCMonth() - trialEnd.getUTCMonth());
  months = Math.max(months, 0);
  let next = addMonthsClamped(trialEnd, months);
  while (next.getTime() <= periodEnd.getTime()) next = addMonthsClamped(trialEnd, ++months);
  return next;
}

/** True when the period ending at `periodEnd` is the free trial (no invoice). */
export function isTrialPeriod(trialEnd: Date, periodEnd: Date): boolean {
  return periodEnd.getTime() <= trialEnd.getTime();
}

/** `"<start ISO>/<end ISO>"`, an ISO 8601 interval (spec 2.8 `period`). */
export function formatPeriod(start: Date, end: Date): string {
  return `${start.toISOString()}/${end.toISOString()}`;
}

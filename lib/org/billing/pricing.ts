/** Seat prices (spec 8): integer cents inside, numbers in USD on the API (lib/billing/money.ts). */
export const SEAT_PRICE_CENTS = 99; // 0.99 USD per active member per month, after the trial

/** What a period with `seats` active members costs, in cents: seats x price, no proration. */
export function seatChargeCents(seats: number, pricePerSeatCents: number): number {
  if (!Number.isInteger(seats) || seats < 0) throw new RangeError("seats must be a non-negative integer");
  if (!Number.isInteger(pricePerSeatCents) || pricePerSeatCents < 0) throw new RangeError("pricePerSeatCents must be a non-negative integer");
  return seats * pricePerSeatCents;
}

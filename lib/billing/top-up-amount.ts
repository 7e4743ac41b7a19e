import { z } from "zod";
import { centsToAmount } from "./money";

/**
 * Bounds of one wallet top-up, in cents (USD). 10 USD is above Stripe's own
 * minimum charge (0.50 USD) by enough that the card fee stays a small part
 * of the payment; 10,000 USD caps what one mistyped amount or one stolen
 * portal session can charge to a card. A larger top-up is several payments.
 */
export const TOP_UP_MIN_CENTS = 10_00;
export const TOP_UP_MAX_CENTS = 10_000_00;

const boundsMessage = `A top-up is between ${centsToAmount(TOP_UP_MIN_CENTS)} and ${centsToAmount(TOP_UP_MAX_CENTS)} USD`;

/** A top-up amount in minor units (cents): what `createTopUpCheckout` takes. */
export const TopUpAmountMinor = z
  .number({ error: "The amount must be a number of cents" })
  .int("The amount must be a whole number of cents")
  .min(TOP_UP_MIN_CENTS, boundsMessage)
  .max(TOP_UP_MAX_CENTS, boundsMessage);

/**
 * A top-up amount as people type it and as the API shows money: a number of
 * USD with at most 2 decimals (e.g. 25 or 25.50), turned into cents. For a
 * portal form or route body (`{ amount: 25.5 }`); the bounds are the same.
 */
export const TopUpAmountUsd = z
  .number({ error: "The amount must be a number of USD" })
  .refine((v) => Number.isFinite(v) && Math.abs(Math.round(v * 100) - v * 100) < 1e-6, "At most 2 decimals (cents)")
  .transform((v) => Math.round(v * 100))
  .pipe(TopUpAmountMinor);

/** The body of a "top up my wallet" request: `{ amount }` in USD. */
export const TopUpRequestBody = z.strictObject({ amount: TopUpAmountUsd });

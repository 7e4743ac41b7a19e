import { z } from "zod";

/**
 * Rolling a credential (an API key, the OIDC client secret, a webhook
 * signing secret), as Stripe's "roll key": a new one works at once and the
 * old one keeps working for an overlap window the developer chooses, then
 * stops. The portal offers these windows; the API takes any number of
 * seconds from 0 (the old one stops at once) to 7 days. Pure: the portal's
 * client components import it too.
 */
export const ROLL_WINDOWS = [
  { seconds: 0, label: "Now" },
  { seconds: 3600, label: "In 1 hour" },
  { seconds: 86_400, label: "In 24 hours" },
  { seconds: 259_200, label: "In 3 days" },
  { seconds: 604_800, label: "In 7 days" },
] as const;

export const DEFAULT_ROLL_WINDOW_SECONDS = 86_400;
export const MAX_ROLL_WINDOW_SECONDS = 604_800;

export const ExpirePreviousIn = z
  .number({ message: "expire_previous_in must be a whole number of seconds" })
  .int("expire_previous_in must be a whole number of seconds")
  .min(0, "expire_previous_in must be 0 or more seconds")
  .max(MAX_ROLL_WINDOW_SECONDS, `expire_previous_in must be at most ${MAX_ROLL_WINDOW_SECONDS} seconds (7 days)`)
  .default(DEFAULT_ROLL_WINDOW_SECONDS)
  .meta({
    description:
      "Extension (not in the spec): seconds the previous one keeps working, 0 (stops at once) to 604800 (7 days); default 86400 (24 hours).",
  });

/** The body of a roll: how long the previous credential keeps working. */
export const RollBody = z.object({ expire_previous_in: ExpirePreviousIn });

/** When the previous credential stops working, for a window of `seconds` from `at`; null: at once. */
export function previousExpiry(at: Date, seconds: number): Date | null {
  return seconds > 0 ? new Date(at.getTime() + seconds * 1000) : null;
}

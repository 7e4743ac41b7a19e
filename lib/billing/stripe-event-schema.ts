import { z } from "zod";
import { isStorableText } from "@/lib/http/core/clean-input";

/**
 * The parts of a Stripe event the wallet reads, checked before use: a
 * correctly signed body is genuine, not well-formed (a missing `data`, a
 * null object, a metadata value that is an object or holds a NUL would
 * otherwise be a 500, which Stripe retries for days).
 */
const storableText = z.string().refine(isStorableText, "Must not contain NUL characters or unpaired UTF-16 surrogates");

/** Every event: its id (stored on the top-up it completes) and type. */
export const StripeEventHead = z.object({ id: storableText.min(1), type: z.string() });

/** A Checkout Session, as far as a top-up needs it; other fields (and metadata keys) are ignored. */
export const CheckoutSessionFields = z.object({
  id: storableText.min(1),
  client_reference_id: storableText.nullish(),
  metadata: z.object({ top_up_id: storableText.optional(), organization_id: storableText.optional() }).nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  payment_status: z.string().nullish(),
});
export type CheckoutSessionFields = z.infer<typeof CheckoutSessionFields>;

export const CheckoutSessionEvent = z.object({ data: z.object({ object: CheckoutSessionFields }) });

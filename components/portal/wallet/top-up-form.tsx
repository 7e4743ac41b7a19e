"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { errorMessage, fieldErrors, formatMoney, PortalApiError, portalFetch, text } from "../api";

const t = text.wallet;

/** Bounds of one top-up in USD (lib/billing/top-up-amount.ts), given by the page. */
export type TopUpBounds = { minAmount: number; maxAmount: number };

/**
 * What was typed, as the route's `{ amount }`: a number when it reads as
 * one, else the text itself, so the route's schema says why it is refused
 * (one set of rules and messages: lib/billing/top-up-amount.ts).
 */
function amountOf(typed: string): number | string {
  const value = typed.trim();
  const number = Number(value);
  return value !== "" && Number.isFinite(number) ? number : value;
}

function failureMessage(error: unknown): string {
  if (error instanceof PortalApiError && error.code === "top_up_not_configured") return t.topUpNotConfigured;
  if (error instanceof PortalApiError && error.code === "payment_provider_error") return t.topUpProviderError;
  return errorMessage(error);
}

/**
 * The amount and the "Top up" button: POST /api/portal/wallet/top-up, then
 * the browser goes to the Stripe Checkout page it answers. The wallet is
 * credited later, by Stripe's signed webhook, never here. Uncontrolled
 * input: what was typed stays on an error, shown next to the field.
 */
export function TopUpForm({ minAmount, maxAmount }: TopUpBounds) {
  const amountInput = useRef<HTMLInputElement>(null);
  const start = useMutation({
    mutationFn: (amount: number | string) => portalFetch<{ url: string }>("POST", "/api/portal/wallet/top-up", { amount }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => {
      if (fieldErrors(error, "amount")) amountInput.current?.focus();
    },
  });
  const { reset } = start;
  useEffect(() => {
    // Back from Checkout with the browser's Back button, the page may come from the back-forward cache as it was left.
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, [reset]);

  const amountErrors = fieldErrors(start.error, "amount");
  const leaving = start.isPending || start.isSuccess;
  return (
    <form
      className="mt-2 max-w-md"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        start.mutate(amountOf(String(new FormData(event.currentTarget).get("amount") ?? "")));
      }}
    >
      {start.isError && !amountErrors && <Notice tone="error">{failureMessage(start.error)}</Notice>}
      <Field
        ref={amountInput}
        label={t.topUpAmount}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        required
        hint={t.topUpAmountHint(formatMoney(minAmount), formatMoney(maxAmount))}
        errors={amountErrors}
      />
      <Button type="submit" className="mt-4" disabled={leaving}>
        {leaving ? t.topUpOpening : t.topUp}
      </Button>
    </form>
  );
}

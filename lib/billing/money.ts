/** Money is integer cents everywhere inside; the API shows numbers (spec 2.8). */
export function parseAmountToCents(input: string | number): number {
  const text = String(input).trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) {
    throw new RangeError(`Invalid amount "${input}": use a positive number with at most 2 decimals`);
  }
  const [whole, frac = ""] = text.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

export function centsToAmount(cents: number): number {
  return Math.round(cents) / 100;
}

export const WELCOME_CREDIT_CENTS = 100_00;
export const CURRENCY = "USD" as const;

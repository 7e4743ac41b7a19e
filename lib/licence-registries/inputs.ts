import { z } from "zod";
import type { LicenceInputField } from "./types";

/**
 * The inputs a licence lookup takes (spec 2.6 `required_fields`), each with
 * its rule, so a malformed answer is a 400 before any registry is asked.
 */

/** An NPI: ten digits whose last is the Luhn check digit over "80840" + the first nine (CMS, NPI check digit). */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`.split("").map(Number);
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits[i]!;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export const LICENCE_INPUT_RULES: Record<LicenceInputField, z.ZodType<string>> = {
  license_number: z
    .string()
    .trim()
    .min(1, "Enter the licence number")
    .max(40, "A licence number is at most 40 characters")
    .regex(/^[A-Za-z0-9][A-Za-z0-9 .\-/]*$/, "Letters, digits, spaces, dots, dashes and slashes only"),
  npi_number: z
    .string()
    .trim()
    .regex(/^\d{10}$/, "An NPI is 10 digits")
    .refine(isValidNpi, "Not a valid NPI (its check digit does not match)"),
};

/** Labels the hosted page shows for each input. */
export const LICENCE_INPUT_LABELS: Record<LicenceInputField, string> = {
  license_number: "Licence number",
  npi_number: "NPI number",
};

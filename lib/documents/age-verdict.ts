/**
 * The age check from a document's date of birth: whole years on `today`
 * (UTC calendar dates; a birthday on 29 February counts from 1 March in
 * common years). Only age bands leave the service, never the date itself.
 */
export function ageInYears(dateOfBirth: string, today: Date): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const ty = today.getUTCFullYear();
  const tm = today.getUTCMonth() + 1;
  const td = today.getUTCDate();
  let age = ty - y;
  if (tm < m || (tm === m && td < d)) age--;
  return age;
}

/** The age bands that leave the service instead of the date of birth. */
export function ageBands(age: number) {
  return { is_18_plus: age >= 18, is_21_plus: age >= 21 };
}

export function ageVerdict(dateOfBirth: string | null | undefined, minimumAge: number, today: Date) {
  if (!dateOfBirth || !/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) {
    return {
      status: "failed" as const,
      data: { is_18_plus: null, is_21_plus: null, minimum_age: minimumAge, meets_minimum_age: null },
      error: { code: "missing_dob", message: "The document gave no readable date of birth" },
    };
  }
  const age = ageInYears(dateOfBirth, today);
  const meets = age >= minimumAge;
  return {
    status: meets ? ("passed" as const) : ("failed" as const),
    data: { ...ageBands(age), minimum_age: minimumAge, meets_minimum_age: meets },
    error: meets ? null : { code: "under_minimum_age", message: `Younger than the minimum age of ${minimumAge}` },
  };
}

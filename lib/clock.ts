/**
 * The one source of "now" for domain code, so expiry rules are testable
 * without sleeping: tests swap the implementation with setClock().
 */
export type Clock = { now(): Date };

const systemClock: Clock = { now: () => new Date() };
let current: Clock = systemClock;

export function now(): Date {
  return current.now();
}

export function setClock(clock: Clock | null) {
  current = clock ?? systemClock;
}

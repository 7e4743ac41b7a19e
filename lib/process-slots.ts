/**
 * Values held once per process: the database handles, the job queue, the
 * vision pool, caches, timers. Next bundles a module into more than one
 * chunk (each route, the instrumentation hook), and each chunk has its own
 * copy of the module's top-level variables, so a value that must exist once
 * per process lives here, in one map on `globalThis` under a registered
 * symbol, named. server.mjs (outside the bundle) reads the HTTP edge from
 * the same map.
 *
 * A slot holds a value or nothing (undefined); `null` is a value. Tests
 * forget slots with resetProcessSlots, so the next use makes them again
 * (a setting changed, a key ring re-read).
 */
const SLOTS = Symbol.for("svc.process-slots");

type Slots = Map<string, unknown>;

function slots(): Slots {
  const holder = globalThis as { [SLOTS]?: Slots };
  return (holder[SLOTS] ??= new Map());
}

/** A named value of this process: read and written through `value` (undefined: nothing held). */
export type ProcessSlot<T> = { value: T | undefined };

export function processSlot<T>(name: string): ProcessSlot<T> {
  return {
    get value() {
      return slots().get(name) as T | undefined;
    },
    set value(value: T | undefined) {
      if (value === undefined) slots().delete(name);
      else slots().set(name, value);
    },
  };
}

/** Forgets the named slots (all of them when none is named): for tests, which change what a slot was made from. */
export function resetProcessSlots(...names: string[]): void {
  if (names.length === 0) slots().clear();
  else for (const name of names) slots().delete(name);
}

/**
 * Sets every slot aside but those named in `keep`, for work this process
 * does for another install (tests run the admin CLI's commands so): the
 * work makes its own database handles, key ring, settings. The returned
 * function puts the slots back and hands over the values made meanwhile,
 * for the caller to close.
 */
export function setProcessSlotsAside(keep: readonly string[]): () => Map<string, unknown> {
  const held = slots();
  const aside = new Map([...held].filter(([name]) => !keep.includes(name)));
  for (const name of aside.keys()) held.delete(name);
  return () => {
    const made = new Map([...held].filter(([name]) => !keep.includes(name)));
    for (const name of made.keys()) held.delete(name);
    for (const [name, value] of aside) held.set(name, value);
    return made;
  };
}

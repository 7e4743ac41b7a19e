"use client";

import { useSyncExternalStore } from "react";

/**
 * Controls that need the page's JavaScript must not be used before it runs:
 * a form submitted before hydration posts natively (losing the typed input
 * to a reload) or its input is replaced as React takes over. Until the page
 * is hydrated such controls are disabled (visibly, and announced as
 * unavailable), so the person can neither type into them nor submit them
 * yet; plain links and native-form pages (the sign-in and account pages)
 * need no gate.
 */
const never = () => () => {};

/** False on the server and while the page hydrates, true once React runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/**
 * Every form control inside is disabled until the page is hydrated (one
 * `<fieldset disabled>`, which leaves the layout alone: `display: contents`),
 * and the region is marked busy meanwhile. One per layout covers every
 * form of its pages.
 */
export function HydrationGate({ children }: { children: React.ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset role={hydrated ? "presentation" : undefined} disabled={!hydrated} aria-busy={hydrated ? undefined : true} data-hydrated={hydrated} className="contents">
      {children}
    </fieldset>
  );
}

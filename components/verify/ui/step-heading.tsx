"use client";

import { useEffect, useRef } from "react";

/**
 * The heading of each view. It takes the keyboard / screen-reader focus when
 * the view appears (and when `focusKey` changes), so moving through the
 * steps is announced and the next Tab starts at the top of the new content.
 */
export function StepHeading({ children, focusKey }: { children: React.ReactNode; focusKey?: string | number }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: false });
  }, [focusKey]);
  return (
    <h1 ref={ref} tabIndex={-1} className="text-2xl font-bold tracking-tight text-slate-900 outline-none sm:text-3xl">
      {children}
    </h1>
  );
}

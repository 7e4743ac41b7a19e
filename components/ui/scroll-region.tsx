/**
 * A wide table's horizontal scroller: focusable and named, so keyboard users
 * can scroll it on a phone (axe: scrollable-region-focusable).
 */
export function ScrollRegion({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="mt-2 overflow-x-auto rounded focus-visible:outline focus-visible:outline-3 focus-visible:outline-blue-700"
    >
      {children}
    </div>
  );
}

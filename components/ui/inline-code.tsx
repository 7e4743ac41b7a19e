/** Inline code span used across pages. */
export function InlineCode({ children }: { children: React.ReactNode }) {
  return <code className="rounded bg-slate-200 px-1 py-0.5 font-mono text-[0.9em]">{children}</code>;
}

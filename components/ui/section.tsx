/** A titled card of a settings page. */
export function Section({ title, id, children, description }: { title: string; id?: string; description?: string; children: React.ReactNode }) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section aria-labelledby={headingId} className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {description && <p className="mt-1 text-slate-700">{description}</p>}
      {children}
    </section>
  );
}

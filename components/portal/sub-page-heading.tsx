import Link from "next/link";

/** A page below a list (one workflow, one session, a new workflow): the way back to the list, then the page's heading. */
export function SubPageHeading({ back, title }: { back: { href: string; label: string }; title: string }) {
  return (
    <>
      <p className="mt-4">
        <Link className="text-sm font-semibold text-blue-800 underline" href={back.href}>
          {back.label}
        </Link>
      </p>
      <h1 className="mt-2 break-words text-2xl font-semibold text-slate-900 [overflow-wrap:anywhere]">{title}</h1>
    </>
  );
}

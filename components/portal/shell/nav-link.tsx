"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const ITEM = "block rounded-lg px-3 py-2 font-medium focus-visible:outline focus-visible:outline-3 focus-visible:outline-blue-700";

/** A navigation entry; the current page's is marked (aria-current) and highlighted. `exact`: only that path, not its sub-pages. */
export function NavLink({ href, children, exact = false }: { href: string; children: React.ReactNode; exact?: boolean }) {
  const pathname = usePathname();
  const current = exact ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? "page" : undefined} className={`${ITEM} ${current ? "bg-blue-100 text-blue-950" : "text-slate-800 hover:bg-slate-100"}`}>
      {children}
    </Link>
  );
}

import Link from "next/link";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import type { PortalDeveloper } from "@/lib/portal/access";
import { NavLink } from "./nav-link";
import { SignOutButton } from "./sign-out-button";

const t = messagesFor(DEFAULT_LOCALE).portal;

/** The signed-in portal's frame: header (organization, who, sign out), an account notice if any, the main navigation, the page. */
export function PortalShell({ developer, notice, children }: { developer: PortalDeveloper; notice?: React.ReactNode; children: React.ReactNode }) {
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-white focus:p-2">
        {t.skipToContent}
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div>
            <Link href="/dashboard/apps" className="text-lg font-semibold text-slate-900">
              {t.productName}
            </Link>
            <p className="text-sm text-slate-700">{t.shell.organization(developer.organizationName)}</p>
          </div>
          <div className="flex items-center gap-3">
            <p className="hidden text-sm text-slate-700 sm:block">{t.shell.signedInAs(developer.email)}</p>
            <SignOutButton />
          </div>
        </div>
      </header>
      {notice && <div className="mx-auto max-w-6xl px-4">{notice}</div>}
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 md:flex-row">
        <nav aria-label={t.shell.mainNav} className="md:w-56 md:shrink-0">
          <ul className="flex flex-wrap gap-1 md:flex-col">
            <li>
              <NavLink href="/dashboard/apps">{t.shell.apps}</NavLink>
            </li>
            <li>
              <NavLink href="/dashboard/wallet">{t.shell.wallet}</NavLink>
            </li>
          </ul>
          <p id="organization-nav-heading" className="mt-4 px-3 text-xs font-semibold uppercase tracking-wide text-slate-600">
            {t.shell.organizationGroup}
          </p>
          <ul aria-labelledby="organization-nav-heading" className="flex flex-wrap gap-1 md:flex-col">
            <li>
              <NavLink href="/dashboard/roster">{t.organization.nav.roster}</NavLink>
            </li>
            <li>
              <NavLink href="/dashboard/billing">{t.organization.nav.billing}</NavLink>
            </li>
            <li>
              <NavLink href="/dashboard/recovery">{t.organization.nav.recovery}</NavLink>
            </li>
          </ul>
          <ul className="mt-4 flex flex-wrap gap-1 md:flex-col">
            <li>
              {/* A server-rendered page outside the portal's app: a plain link, not a client navigation. */}
              <a href="/docs" className="block rounded-lg px-3 py-2 font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline focus-visible:outline-3 focus-visible:outline-blue-700">
                {t.shell.apiReference}
              </a>
            </li>
          </ul>
        </nav>
        <main id="main" className="min-w-0 flex-1">
          {children}
        </main>
      </div>
    </div>
  );
}

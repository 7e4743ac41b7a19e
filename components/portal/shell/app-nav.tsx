import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { NavLink } from "./nav-link";

const t = messagesFor(DEFAULT_LOCALE).portal;

/** The sections of one app. */
export function AppNav({ appId, appName }: { appId: string; appName: string }) {
  const base = `/dashboard/apps/${appId}`;
  return (
    <nav aria-label={t.appNav.label(appName)} className="mt-4 border-b border-slate-200 pb-3">
      <ul className="flex flex-wrap gap-1">
        <li>
          <NavLink href={base} exact>
            {t.appNav.settings}
          </NavLink>
        </li>
        <li>
          <NavLink href={`${base}/keys`}>{t.appNav.apiKeys}</NavLink>
        </li>
        <li>
          <NavLink href={`${base}/oidc`}>{t.appNav.oidc}</NavLink>
        </li>
        <li>
          <NavLink href={`${base}/workflows`}>{t.appNav.workflows}</NavLink>
        </li>
        <li>
          <NavLink href={`${base}/webhooks`}>{t.appNav.webhooks}</NavLink>
        </li>
        <li>
          <NavLink href={`${base}/sessions`}>{t.appNav.sessions}</NavLink>
        </li>
        <li>
          <NavLink href={`${base}/review`}>{t.appNav.reviewQueue}</NavLink>
        </li>
      </ul>
    </nav>
  );
}

import type { Metadata } from "next";
import { Section } from "@/components/ui/section";
import { SessionsFilterForm } from "@/components/portal/sessions/sessions-filter-form";
import { SessionsList } from "@/components/portal/sessions/sessions-list";
import { fieldErrors } from "@/lib/http/validation";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";
import { requireAppOfDeveloper, requireDeveloper } from "@/lib/portal/page-access";
import { SessionsPageQuery } from "@/lib/sessions/schemas";
import { listSessionsPage } from "@/lib/sessions/session-pages";

const t = messagesFor(DEFAULT_LOCALE).portal;
export const metadata: Metadata = { title: `${t.sessions.title} · ${t.productName}` };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The app's sessions: the filter form and the first page, rendered on the server from the address's `status` and `vendor_data`. */
export default async function SessionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ appId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { appId } = await params;
  const path = `/dashboard/apps/${appId}/sessions`;
  const app = await requireAppOfDeveloper(await requireDeveloper(path), appId);
  const raw = await searchParams;
  const input = { status: first(raw.status) ?? "", vendor_data: first(raw.vendor_data) ?? "" };
  const parsed = SessionsPageQuery.safeParse(input);
  const filter = parsed.success ? { status: parsed.data.status, vendor_data: parsed.data.vendor_data } : {};
  const firstPage = parsed.success ? await listSessionsPage(app, filter) : null;
  return (
    <>
      <h1 className="mt-4 text-2xl font-semibold text-slate-900">{t.sessions.title}</h1>
      <p className="mt-1 text-slate-700">{t.sessions.intro}</p>
      <Section title={t.sessions.filtersHeading} id="filters">
        <SessionsFilterForm
          key={`${input.status}\u0000${input.vendor_data}`}
          action={path}
          status={input.status}
          vendorData={input.vendor_data}
          errors={parsed.success ? {} : fieldErrors(parsed.error, "query")}
        />
      </Section>
      <Section title={t.sessions.listHeading} id="sessions">
        {firstPage ? (
          <SessionsList appId={app.id} filter={filter} firstPage={firstPage} />
        ) : (
          <p className="mt-2 text-slate-700">{t.sessions.invalidFilter}</p>
        )}
      </Section>
    </>
  );
}

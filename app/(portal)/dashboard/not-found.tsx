import Link from "next/link";
import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";

const t = messagesFor(DEFAULT_LOCALE).portal;

/** Another organization's app (or an unknown id): the same 404 as the API, saying nothing more. */
export default function PortalNotFound() {
  return (
    <div>
      <h1 className="text-2xl font-semibold text-slate-900">{t.notFound.title}</h1>
      <p className="mt-2 text-slate-700">{t.notFound.body}</p>
      <p className="mt-4">
        <Link className="font-semibold text-blue-800 underline" href="/dashboard/apps">
          {t.notFound.back}
        </Link>
      </p>
    </div>
  );
}

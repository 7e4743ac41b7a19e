import { messagesFor, DEFAULT_LOCALE } from "@/lib/i18n";

const t = messagesFor(DEFAULT_LOCALE).portal;

/** Sign-in, sign-up and password reset: one narrow card, phone first. */
export default function PublicPortalLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen px-4 py-10">
      <header className="mx-auto max-w-md">
        <p className="text-lg font-semibold text-slate-900">{t.productName}</p>
      </header>
      <main className="mx-auto mt-4 max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm">{children}</main>
    </div>
  );
}

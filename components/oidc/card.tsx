import { STRINGS } from "@/lib/accounts/sign-in-strings";

/** The frame of every sign-in page: who is asking (the app's name and logo), then the step. */
export function OidcCard({
  app,
  children,
}: {
  app?: { name: string; logo: string | null; environment: string };
  children: React.ReactNode;
}) {
  return (
    <main className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-slate-700">{STRINGS.layout.brand}</p>
      <div className="mt-4 rounded-xl border border-slate-300 bg-white p-6 shadow-sm sm:p-8">
        {app && (
          <div className="mb-6 flex items-center gap-3">
            {app.logo ? (
              // A data URL stored with the app (lib/tenancy/app-branding.ts).
              // eslint-disable-next-line @next/next/no-img-element
              <img src={app.logo} alt={STRINGS.layout.logoAlt(app.name)} className="h-10 w-10 rounded object-contain" />
            ) : null}
            <div>
              <p className="font-semibold text-slate-900">{app.name}</p>
              {app.environment === "test" && (
                <p className="text-xs font-semibold text-amber-900">{STRINGS.layout.testApp}</p>
              )}
            </div>
          </div>
        )}
        {children}
      </div>
    </main>
  );
}

import { PortalShell } from "@/components/portal/shell/portal-shell";
import { requireDeveloper } from "@/lib/portal/page-access";

/** Every /dashboard page needs a signed-in developer (else the sign-in page). */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const developer = await requireDeveloper("/dashboard");
  return <PortalShell developer={developer}>{children}</PortalShell>;
}

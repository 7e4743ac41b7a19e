import { VerifyEmailBanner } from "@/components/portal/auth/email-verification";
import { PortalShell } from "@/components/portal/shell/portal-shell";
import { mailMode } from "@/lib/mail/mailer";
import { requireDeveloper } from "@/lib/portal/page-access";

/** Every /dashboard page needs a signed-in developer (else the sign-in page); an unverified email gets the banner. */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const developer = await requireDeveloper("/dashboard");
  return (
    <PortalShell developer={developer} notice={developer.emailVerified ? null : <VerifyEmailBanner canMail={mailMode() !== "disabled"} />}>
      {children}
    </PortalShell>
  );
}

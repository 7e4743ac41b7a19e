import { VerifyEmailBanner } from "@/components/portal/auth/email-verification";
import { PortalShell } from "@/components/portal/shell/portal-shell";
import { mailMode } from "@/lib/mail/mailer";
import { requireDeveloper } from "@/lib/portal/page-access";
import { isEmailVerified } from "@/lib/tenancy/verify-developer-email";

/** Every /dashboard page needs a signed-in developer (else the sign-in page); an unverified email gets the banner. */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const developer = await requireDeveloper("/dashboard");
  const verified = await isEmailVerified(developer.developerId);
  return (
    <PortalShell developer={developer} notice={verified ? null : <VerifyEmailBanner canMail={mailMode() !== "disabled"} />}>
      {children}
    </PortalShell>
  );
}

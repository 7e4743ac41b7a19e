import { PortalQueryProvider } from "@/components/portal/query-provider";
import { HydrationGate } from "@/components/ui/hydration";

/**
 * The developer portal (route group): react-query for the client-side reads
 * and mutations of every portal page; every form control disabled until
 * the page is hydrated (HydrationGate: the portal's forms need its script).
 */
export default function PortalLayout({ children }: { children: React.ReactNode }) {
  return (
    <PortalQueryProvider>
      <HydrationGate>{children}</HydrationGate>
    </PortalQueryProvider>
  );
}

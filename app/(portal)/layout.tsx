import { PortalQueryProvider } from "@/components/portal/query-provider";

/** The developer portal (route group): react-query for the client-side reads and mutations of every portal page. */
export default function PortalLayout({ children }: { children: React.ReactNode }) {
  return <PortalQueryProvider>{children}</PortalQueryProvider>;
}

import type { Session } from "@/generated/prisma/client";
import { processSlot } from "@/lib/process-slots";
import type { HeaderReader } from "./request";

/**
 * The callers the HTTP core cannot recognise by itself, because a domain
 * knows them: the hosted flow's session behind a session token (lib/flow),
 * whether that session can still take a step (lib/sessions), and the
 * portal's signed-in developer (lib/portal). The core is platform and
 * imports no domain (docs/architecture.md "Layers inside lib/"): the server
 * registers them as it starts (lib/server/route-callers.ts, called first by
 * lib/server/start-services.ts), before the first request.
 */

/** The portal developer a request is signed in as (auth "developer"), with their organization. */
export type RouteDeveloper = {
  developerId: string;
  email: string;
  name: string | null;
  organizationId: string;
  organizationName: string;
  /** Whether the developer proved the email is theirs (the welcome credit comes with it). */
  emailVerified: boolean;
};

type CallerRequest = { method: string; headers: HeaderReader };

export type RouteCallers = {
  /** Auth "sessionToken": the session the request's token names; throws the ApiError a bad token gets. */
  session(req: CallerRequest): Promise<Session>;
  /** Whether the session's outcome is decided (a route that `answersDecidedSession` answers it instead of refusing). */
  isDecided(session: Session): boolean;
  /** Throws the ApiError a closed or expired session gets when a step is asked of it. */
  assertOpen(session: Session): void;
  /** Auth "developer": the signed-in portal developer; throws the ApiError a stranger gets. */
  developer(req: CallerRequest): Promise<RouteDeveloper>;
};

const callersSlot = processSlot<RouteCallers>("httpRouteCallers");

export function registerRouteCallers(callers: RouteCallers): void {
  callersSlot.value = callers;
}

export function routeCallers(): RouteCallers {
  const callers = callersSlot.value;
  if (!callers) throw new Error("The HTTP core has no route callers: the server registers them at start-up (lib/server/route-callers.ts)");
  return callers;
}

import { sessionFromToken } from "@/lib/flow/session-token";
import { registerRouteCallers } from "@/lib/http/core/callers";
import { authenticatePortalRequest } from "@/lib/portal/authenticate";
import { assertSessionOpen } from "@/lib/sessions/open-session";
import { isDecided } from "@/lib/sessions/statuses";

/**
 * Gives the HTTP core the callers its domains recognise (lib/http/core/callers.ts):
 * a hosted session from its token, the session rules a step obeys, and the
 * portal's signed-in developer. Run first at server start-up.
 */
export function registerDomainRouteCallers(): void {
  registerRouteCallers({
    session: (req) => sessionFromToken(req, { forUpdate: false }),
    isDecided: (session) => isDecided(session.status),
    assertOpen: (session) => assertSessionOpen(session),
    developer: (req) => authenticatePortalRequest(req),
  });
}

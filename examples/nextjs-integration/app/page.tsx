import { signOut, verifyIdentity } from "./actions";
import { currentUser } from "@/lib/oidc";
import { sessionsOf } from "@/lib/store";
import { verifiedStatus } from "@/lib/verification";

export const dynamic = "force-dynamic";

type Search = Promise<{ session_id?: string; status?: string; signin_error?: string; verify_error?: string }>;

/**
 * Home: sign in, verify, see each decision. When the hosted page sends the
 * person back (`?session_id=...&status=...`), the status in the URL is only
 * a hint anyone could type: the decision shown is the one the signed
 * webhook brought, and the page refreshes itself until it has arrived.
 */
export default async function Home({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const user = await currentUser();
  if (!user) {
    return (
      <main>
        <h1>Example shop</h1>
        {params.signin_error ? <p role="alert">Sign-in failed: {params.signin_error}</p> : null}
        <p>Sign in with your SVC Identity account, then verify your identity.</p>
        <p>
          <a href="/login">Sign in with SVC Identity</a>
        </p>
      </main>
    );
  }
  const sessions = sessionsOf(user.sub);
  const status = await verifiedStatus(user.accessToken);
  const waiting = params.session_id !== undefined && sessions.some((s) => s.sessionId === params.session_id && s.decision === null);
  return (
    <main>
      {waiting ? <meta httpEquiv="refresh" content="2" /> : null}
      <h1>Example shop</h1>
      <p>Signed in as {user.name ?? user.email}.</p>
      {params.verify_error ? <p role="alert">Verification could not start: {params.verify_error}</p> : null}
      <p data-testid="provider-status">
        {status ? `Your account: identity ${status.id_verified ? "verified" : "not verified"}, liveness ${status.human_verified ? "verified" : "not verified"}.` : "Your verified status could not be read."}
      </p>
      <form action={verifyIdentity}>
        <button type="submit">Verify my identity</button>
      </form>
      <h2>Your verifications</h2>
      {sessions.length === 0 ? <p>None yet.</p> : null}
      <ul>
        {sessions.map(({ sessionId, decision }) => (
          <li key={sessionId} data-session-id={sessionId}>
            {decision ? (
              <>
                Decision: <strong>{decision.status}</strong> (
                {decision.checks.map((c) => `${c.type} ${c.status}`).join(", ") || "no checks"}), received by signed webhook.
              </>
            ) : (
              <>Waiting for the decision…</>
            )}{" "}
            <small>{sessionId}</small>
          </li>
        ))}
      </ul>
      <form action={signOut}>
        <button type="submit">Sign out</button>
      </form>
    </main>
  );
}

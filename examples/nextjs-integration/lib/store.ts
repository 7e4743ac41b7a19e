/**
 * What this example remembers: the sessions it created for each person and
 * the decisions its webhook received. In memory (one `next start` process),
 * so a restart forgets them; a real integration keeps both in its database,
 * with a unique key on the webhook's event id.
 */
export type Decision = {
  sessionId: string;
  status: string;
  checks: Array<{ type: string; status: string }>;
  eventId: string;
  receivedAt: string;
};

type Store = { sessionsByPerson: Map<string, string[]>; decisions: Map<string, Decision> };

const globalStore = globalThis as unknown as { __exampleStore?: Store };
const store: Store = (globalStore.__exampleStore ??= { sessionsByPerson: new Map(), decisions: new Map() });

export function rememberSession(personSub: string, sessionId: string): void {
  const sessions = store.sessionsByPerson.get(personSub) ?? [];
  store.sessionsByPerson.set(personSub, [sessionId, ...sessions]);
}

/** The person's sessions, newest first, each with its decision once the webhook brought it. */
export function sessionsOf(personSub: string): Array<{ sessionId: string; decision: Decision | null }> {
  return (store.sessionsByPerson.get(personSub) ?? []).map((sessionId) => ({ sessionId, decision: store.decisions.get(sessionId) ?? null }));
}

export function recordDecision(decision: Decision): void {
  store.decisions.set(decision.sessionId, decision);
}

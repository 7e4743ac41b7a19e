/**
 * Who an audit row names (`audit_logs.actor`): `api_key:<prefix>` (the
 * verification API), `client:<client_id>` (the organization API), or
 * `developer:<email>` (a developer signed in to the portal), so a reader of
 * the trail recognises the key or the person without another lookup.
 */
export function developerActor(email: string): string {
  return `developer:${email}`;
}

export type ActorView = { kind: "developer" | "api_key" | "client" | "other"; label: string };

export function describeActor(actor: string): ActorView {
  const colon = actor.indexOf(":");
  const kind = colon > 0 ? actor.slice(0, colon) : "";
  const label = colon > 0 ? actor.slice(colon + 1) : actor;
  if (kind === "developer" || kind === "api_key" || kind === "client") return { kind, label };
  return { kind: "other", label: actor };
}

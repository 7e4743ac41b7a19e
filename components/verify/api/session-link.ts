/**
 * The session link `PUBLIC_BASE_URL/verify/<id>#token=<session_token>`: the
 * token travels in the fragment, which browsers never send to a server. The
 * page moves it to sessionStorage (so a reload keeps working) and removes it
 * from the address bar, so it does not end up in screenshots, screen shares
 * or copied links. `handoff=1` in the fragment marks a phone opened from the
 * desktop's QR code.
 */
const storageKey = (sessionId: string) => `svc-verify:${sessionId}`;

export type SessionLink = { token: string | null; handoff: boolean };

function readStorage(sessionId: string): SessionLink | null {
  try {
    const raw = window.sessionStorage.getItem(storageKey(sessionId));
    return raw ? (JSON.parse(raw) as SessionLink) : null;
  } catch {
    return null;
  }
}

function writeStorage(sessionId: string, link: SessionLink) {
  try {
    window.sessionStorage.setItem(storageKey(sessionId), JSON.stringify(link));
  } catch {
    // Storage blocked (private mode, policies): the page still works until a reload.
  }
}

export function readSessionLink(sessionId: string): SessionLink {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const token = fragment.get("token");
  if (token) {
    const link = { token, handoff: fragment.get("handoff") === "1" };
    writeStorage(sessionId, link);
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    return link;
  }
  return readStorage(sessionId) ?? { token: null, handoff: false };
}

/** The same session's link, token included (for the QR code or a new tab). */
export function sessionUrl(sessionId: string, token: string, options: { handoff?: boolean } = {}): string {
  const fragment = new URLSearchParams({ token });
  if (options.handoff) fragment.set("handoff", "1");
  return `${window.location.origin}/verify/${encodeURIComponent(sessionId)}#${fragment.toString()}`;
}

/** An address the page may send the person to: http(s) only (never `javascript:` and the like). */
export function safeReturnUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString() : null;
  } catch {
    return null;
  }
}

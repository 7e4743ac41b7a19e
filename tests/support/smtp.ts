import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/**
 * A local SMTP server that keeps every message, for tests of mail the app
 * sends (login codes). `next(to)` resolves with the next message to that
 * address: one that already arrived unread, or the next to arrive.
 */
export type CapturedMail = { to: string[]; from: string; raw: string };

/** Where a test reads a server's mail (a TestSmtp). */
export type Inbox = { next(to: string, timeoutMs?: number): Promise<CapturedMail> };

export type TestSmtp = {
  host: string;
  port: number;
  messages: CapturedMail[];
  next(to: string, timeoutMs?: number): Promise<CapturedMail>;
  stop(): Promise<void>;
};

export async function startSmtp(): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  const read = new Set<CapturedMail>();
  const waiters: Array<{ to: string; resolve: (m: CapturedMail) => void }> = [];

  const deliver = (mail: CapturedMail) => {
    messages.push(mail);
    const i = waiters.findIndex((w) => mail.to.includes(w.to));
    if (i >= 0) {
      read.add(mail);
      waiters.splice(i, 1)[0]!.resolve(mail);
    }
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (d: string) => (raw += d));
      stream.on("end", () => {
        deliver({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    host: "127.0.0.1",
    port,
    messages,
    next(to, timeoutMs = 15_000) {
      const address = to.toLowerCase();
      const waiting = messages.find((m) => !read.has(m) && m.to.includes(address));
      if (waiting) {
        read.add(waiting);
        return Promise.resolve(waiting);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          to: address,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A mail's plain text with quoted-printable soft line breaks and `=3D` undone (enough to find a link in it). */
export function mailText(mail: CapturedMail): string {
  return mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
}

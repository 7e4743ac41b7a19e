import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";

/**
 * A local SMTP server that keeps every message, for tests of mail the app
 * sends (login codes). `next(to)` resolves with the next message to that
 * address: one that already arrived unread, or the next to arrive. With
 * `saveTo`, every message is also written to that directory, one file per
 * message named after its first recipient, so test workers (other
 * processes) read the shared server's mail with `directoryInbox`.
 */
export type CapturedMail = { to: string[]; from: string; raw: string };

/** Where a test reads a server's mail: a TestSmtp of its own, or the shared server's directoryInbox. */
export type Inbox = { next(to: string, timeoutMs?: number): Promise<CapturedMail> };

export type TestSmtp = {
  host: string;
  port: number;
  messages: CapturedMail[];
  next(to: string, timeoutMs?: number): Promise<CapturedMail>;
  stop(): Promise<void>;
};

export async function startSmtp(options: { saveTo?: string } = {}): Promise<TestSmtp> {
  const messages: CapturedMail[] = [];
  const read = new Set<CapturedMail>();
  const waiters: Array<{ to: string; resolve: (m: CapturedMail) => void }> = [];

  const deliver = (mail: CapturedMail) => {
    messages.push(mail);
    if (options.saveTo) saveMail(options.saveTo, mail);
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

const mailFileName = (to: string) => `${encodeURIComponent(to.toLowerCase())}.${Date.now()}-${randomBytes(4).toString("hex")}.eml`;

/** Written whole under a temporary name, then renamed: a reader never sees half a message. */
function saveMail(dir: string, mail: CapturedMail) {
  const name = mailFileName(mail.to[0] ?? "unknown");
  writeFileSync(path.join(dir, `.${name}.tmp`), mail.raw);
  renameSync(path.join(dir, `.${name}.tmp`), path.join(dir, name));
}

/**
 * The mail a `startSmtp({ saveTo: dir })` server received, read from its
 * directory: `next(to)` waits for a message to that address this inbox has
 * not handed out yet (polling the directory until one arrives or the time
 * is up).
 */
export function directoryInbox(dir: string): Inbox {
  const read = new Set<string>();
  return {
    async next(to, timeoutMs = 15_000) {
      const prefix = `${encodeURIComponent(to.toLowerCase())}.`;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const name = readdirSync(dir)
          .filter((n) => n.startsWith(prefix) && !read.has(n))
          .sort()[0];
        if (name) {
          read.add(name);
          return { to: [to.toLowerCase()], from: "", raw: readFileSync(path.join(dir, name), "utf8") };
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** A mail's plain text with quoted-printable soft line breaks and `=3D` undone (enough to find a link in it). */
export function mailText(mail: CapturedMail): string {
  return mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
}

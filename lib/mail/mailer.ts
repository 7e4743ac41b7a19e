import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/config/env";
import { describeError, logger } from "@/lib/log/logger";
import { processSlot } from "@/lib/process-slots";

/**
 * Outgoing mail. With SMTP_HOST: sent through that server. Without it, in
 * development: written to the server console (stdout) so sign-in works with
 * no setup. Without it in production: nothing is sent and callers say so
 * (`MailNotConfiguredError`): never pretend a message went out.
 */
export type MailMessage = { to: string; subject: string; text: string };
export type MailMode = "smtp" | "console" | "disabled";

export class MailNotConfiguredError extends Error {
  constructor() {
    super("Mail is not configured: set SMTP_HOST (and SMTP_PORT, SMTP_USER, SMTP_PASSWORD, SMTP_FROM)");
    this.name = "MailNotConfiguredError";
  }
}

export function mailMode(): MailMode {
  const config = env();
  if (config.SMTP_HOST) return "smtp";
  return config.isProduction ? "disabled" : "console";
}

const mailTransportSlot = processSlot<Transporter>("mailTransport");

function transport(): Transporter {
  const config = env();
  mailTransportSlot.value ??= nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? "" } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return mailTransportSlot.value;
}

/** Sends one plain-text message; throws MailNotConfiguredError in production without SMTP. */
export async function sendMail(message: MailMessage): Promise<{ via: "smtp" | "console" }> {
  const mode = mailMode();
  if (mode === "disabled") throw new MailNotConfiguredError();
  if (mode === "console") {
    logger.info("mail not sent (development, no SMTP_HOST): printed here instead", {
      to: message.to,
      subject: message.subject,
    });
    process.stdout.write(`\n----- mail to ${message.to}: ${message.subject}\n${message.text}\n-----\n\n`);
    return { via: "console" };
  }
  await transport().sendMail({ from: env().SMTP_FROM, to: message.to, subject: message.subject, text: message.text });
  return { via: "smtp" };
}

/**
 * Sends after the caller has answered (a request's timing then tells nothing
 * about the mail, e.g. whether an account exists); a failure is logged with
 * `context`, never thrown.
 */
export function sendMailInBackground(message: MailMessage, failure: { log: string; context: Record<string, unknown> }): void {
  void sendMail(message).catch((err) => logger.error(failure.log, { ...failure.context, ...describeError(err) }));
}

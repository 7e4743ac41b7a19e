"use client";

import { useMessages } from "../i18n";
import { Actions, Button, buttonClass } from "../ui/button";
import { StepHeading } from "../ui/step-heading";

export type SessionProblem = "expired" | "closed" | "not_found" | "link_incomplete" | "network";

/** A friendly page for a session the person cannot use (never a stack trace). */
export function SessionProblemPage({
  problem,
  appName,
  returnUrl,
  onRetry,
}: {
  problem: SessionProblem;
  appName: string | null;
  returnUrl: string | null;
  onRetry?: () => void;
}) {
  const t = useMessages();
  const text =
    problem === "expired"
      ? { heading: t.problems.expired.heading, body: t.problems.expired.body(appName) }
      : problem === "closed"
        ? t.problems.closed
        : problem === "not_found"
          ? t.problems.notFound
          : problem === "link_incomplete"
            ? t.problems.linkIncomplete
            : t.problems.network;
  return (
    <section data-problem={problem}>
      <StepHeading>{text.heading}</StepHeading>
      <p className="mt-4 text-slate-700">{text.body}</p>
      <Actions>
        {problem === "network" && onRetry && <Button onClick={onRetry}>{t.common.tryAgain}</Button>}
        {returnUrl && appName && (
          <a href={returnUrl} className={buttonClass(problem === "network" ? "secondary" : "primary")}>
            {t.problems.returnTo(appName)}
          </a>
        )}
      </Actions>
    </section>
  );
}

"use client";

import { useTranslations } from "next-intl";
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
  const t = useTranslations("verify");
  const text =
    problem === "expired"
      ? {
          heading: t("problems.expired.heading"),
          body: appName ? t("problems.expired.body", { app: appName }) : t("problems.expired.bodyNoApp"),
        }
      : problem === "closed"
        ? { heading: t("problems.closed.heading"), body: t("problems.closed.body") }
        : problem === "not_found"
          ? { heading: t("problems.notFound.heading"), body: t("problems.notFound.body") }
          : problem === "link_incomplete"
            ? { heading: t("problems.linkIncomplete.heading"), body: t("problems.linkIncomplete.body") }
            : { heading: t("problems.network.heading"), body: t("problems.network.body") };
  return (
    <section data-problem={problem}>
      <StepHeading>{text.heading}</StepHeading>
      <p className="mt-4 text-slate-700">{text.body}</p>
      <Actions>
        {problem === "network" && onRetry && <Button onClick={onRetry}>{t("common.tryAgain")}</Button>}
        {returnUrl && appName && (
          <a href={returnUrl} className={buttonClass(problem === "network" ? "secondary" : "primary")}>
            {t("problems.returnTo", { app: appName })}
          </a>
        )}
      </Actions>
    </section>
  );
}

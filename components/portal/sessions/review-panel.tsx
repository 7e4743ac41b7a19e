"use client";

import { useMutation, useQueryClient, type UseMutationResult } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ConfirmDialog } from "../confirm-dialog";
import type { ReviewItem } from "@/lib/sessions/review-view";
import { errorMessage, fieldErrors, portalFetch, queryKeys, text } from "../api";
import { checkName, formatScore, reasonText } from "./labels";
import type { PresentedSession } from "./sessions-list";
import { StatusBadge } from "./status-badge";

const t = text.review;

/**
 * A kept image, fetched from the portal's no-store route (never next/image:
 * nothing may be cached), at least 320 px wide (narrower only on a screen
 * that is), and a link that opens it full size in a new tab: the same
 * route, so the same guards (the app's signed-in developer, IN_REVIEW only).
 */
function KeptImage({ appId, sessionId, kind, label }: { appId: string; sessionId: string; kind: string; label?: string }) {
  const what = label ?? t.images[kind] ?? kind;
  const src = `/api/portal/apps/${appId}/sessions/${sessionId}/images/${kind}`;
  return (
    <figure className="rounded-lg border border-slate-200 bg-slate-50 p-2">
      <a
        href={src}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t.openFull(what)}
        className="block rounded text-sm font-semibold text-blue-800 underline focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700"
      >
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={src} alt={t.imageAlt(what, sessionId)} className="mx-auto h-auto max-h-[28rem] w-full object-contain" referrerPolicy="no-referrer" />
        <span className="mt-1 block">{t.openFullShort}</span>
      </a>
      <figcaption className="mt-1 text-sm font-medium text-slate-800">{what}</figcaption>
    </figure>
  );
}

/** Kept images in columns of at least 320 px (one column on a narrower screen): a pair sits side by side wherever 640 px fit. */
const IMAGE_GRID = "mt-2 grid gap-2 [grid-template-columns:repeat(auto-fill,minmax(min(320px,100%),1fr))]";

/** The licence lookup a reviewer compares or repeats at the registry: the names side by side, what was typed. */
function LicenceLookup({ licence, H }: { licence: NonNullable<ReviewItem["licence"]>; H: "h3" | "h4" }) {
  const rows: Array<[string, string | null]> = [
    [t.licence.credential, licence.credential_code],
    ...Object.entries(licence.inputs).map(([field, value]) => [t.licence.input(field), value] as [string, string]),
    [t.licence.verifiedName, licence.verified_name],
    [t.licence.registryName, licence.registry_name ?? t.licence.noAnswer],
    [t.licence.registryStatus, licence.registry_status],
    [t.licence.expiresOn, licence.expires_on],
  ];
  return (
    <>
      <H className="mt-4 font-semibold text-slate-900">{t.licence.heading}</H>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-slate-800">
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="font-medium">{label}</dt>
              <dd className="[overflow-wrap:anywhere]">{value}</dd>
            </div>
          ))}
      </dl>
    </>
  );
}

/** One of a reviewer's choices: runs `mutation` with `value`, "Saving…" while that choice is pending, disabled while any is. */
function ChoiceButton<D, V>({
  mutation,
  value,
  label,
  ariaLabel,
  variant,
  disabled = false,
  describedBy,
}: {
  mutation: UseMutationResult<D, Error, V>;
  value: NoInfer<V>;
  label: string;
  ariaLabel: string;
  variant?: "secondary";
  disabled?: boolean;
  describedBy?: string;
}) {
  return (
    <Button variant={variant} aria-label={ariaLabel} aria-describedby={describedBy} disabled={disabled || mutation.isPending} onClick={() => mutation.mutate(value)}>
      {mutation.isPending && mutation.variables === value ? t.deciding : label}
    </Button>
  );
}

type SettledCheck = { check: { type: string; status: string } };

/**
 * A check in review a reviewer may settle (ReviewItem `settle`): liveness
 * (the burst's frames), face match (the document beside the best liveness
 * frame) or the document check (both sides), each with its question, a
 * reason and its two choices (POST .../checks/{type}/review: the API's rule
 * and 409s, audited with the developer's email). Settles the check only;
 * the app's session queries are refetched, so Approve becomes possible once
 * the three checks have passed.
 */
function CheckReview({
  appId,
  sessionId,
  check,
  images,
  H,
  onSettled,
}: {
  appId: string;
  sessionId: string;
  check: string;
  images: readonly string[];
  H: "h3" | "h4";
  onSettled?: (check: string, status: string) => void;
}) {
  const c = t.settleCheck[check]!;
  const [reason, setReason] = useState("");
  const queryClient = useQueryClient();
  const settle = useMutation({
    mutationFn: (status: "passed" | "failed") =>
      portalFetch<SettledCheck>("POST", `/api/portal/apps/${appId}/sessions/${sessionId}/checks/${check}/review`, { status, reason }),
    onSuccess: (result) => onSettled?.(check, result.check.status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions(appId) }),
  });
  const headingId = `${check}-review-${sessionId}`;
  const reasonId = `${check}-reason-${sessionId}`;
  const reasonErrors = fieldErrors(settle.error, "reason");
  const labelOf = (i: number) => (check === "liveness" ? t.settle.frame(i + 1, images.length) : undefined);
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-amber-300 bg-amber-50 p-3 lg:col-span-2">
      <H id={headingId} className="font-semibold text-slate-900">
        {c.heading}
      </H>
      <p className="mt-1 text-slate-800">{c.intro}</p>
      {images.length ? (
        <div className={IMAGE_GRID}>
          {images.map((kind, i) => (
            <KeptImage key={kind} appId={appId} sessionId={sessionId} kind={kind} label={labelOf(i)} />
          ))}
        </div>
      ) : (
        <p className="mt-2 text-slate-700">{t.settle.noImages}</p>
      )}
      <label htmlFor={reasonId} className="mt-3 block font-medium text-slate-900">
        {t.settle.reason}
      </label>
      <p id={`${reasonId}-hint`} className="mt-1 text-sm text-slate-700">
        {t.settle.reasonHint}
      </p>
      <textarea
        id={reasonId}
        rows={2}
        maxLength={500}
        className={INPUT_CLASS}
        value={reason}
        aria-invalid={reasonErrors?.length ? true : undefined}
        aria-describedby={[`${reasonId}-hint`, reasonErrors?.length ? `${reasonId}-error` : ""].filter(Boolean).join(" ")}
        onChange={(event) => setReason(event.currentTarget.value)}
      />
      {reasonErrors?.length ? (
        <p id={`${reasonId}-error`} className="mt-1 text-sm font-medium text-red-800">
          {reasonErrors.join(" ")}
        </p>
      ) : (
        settle.isError && <Notice tone="error">{errorMessage(settle.error)}</Notice>
      )}
      <div className="mt-3 flex flex-col gap-3 sm:flex-row">
        <ChoiceButton mutation={settle} value="passed" label={c.confirm} ariaLabel={c.confirmSession(sessionId)} />
        <ChoiceButton mutation={settle} value="failed" variant="secondary" label={c.reject} ariaLabel={c.rejectSession(sessionId)} />
      </div>
    </section>
  );
}

/**
 * What a reviewer needs to decide one IN_REVIEW session, side by side: the
 * kept images, the engine's reasons and every check's score; then Approve
 * or Decline (Decline after a confirmation: final, deletes the images) (PATCH .../status: the API's rule and 409s, audited with the
 * developer's email). Approve is disabled, with why, when the three face
 * checks have not all passed. After a decision (or a 409: someone else
 * decided) the app's session queries are refetched, so the queue and the
 * session page show what is now true.
 */
export function ReviewPanel({
  appId,
  item,
  headingLevel,
  onDecided,
  onCheckSettled,
}: {
  appId: string;
  item: Pick<ReviewItem, "reasons" | "images" | "checks" | "can_approve" | "licence" | "settle" | "settle_images"> & { session: { session_id: string } };
  headingLevel: "h3" | "h4";
  onDecided?: (session: PresentedSession) => void;
  /** After a check in review was settled ("Confirm live person", "Same person", ...), with the check and its new status. */
  onCheckSettled?: (check: string, status: string) => void;
}) {
  const id = item.session.session_id;
  const H = headingLevel;
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (status: "APPROVED" | "DECLINED") => portalFetch<PresentedSession>("PATCH", `/api/portal/apps/${appId}/sessions/${id}/status`, { status }),
    onSuccess: (session) => onDecided?.(session),
    onSettled: () => {
      setConfirmDecline(false);
      return queryClient.invalidateQueries({ queryKey: queryKeys.sessions(appId) });
    },
  });
  const [confirmDecline, setConfirmDecline] = useState(false);
  const approveNoteId = `approve-note-${id}`;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div>
        <H className="font-semibold text-slate-900">{t.imagesHeading}</H>
        {item.images.length ? (
          <div className={IMAGE_GRID}>
            {item.images.map((kind) => (
              <KeptImage key={kind} appId={appId} sessionId={id} kind={kind} />
            ))}
          </div>
        ) : (
          <p className="mt-2 text-slate-700">{t.noImages}</p>
        )}
      </div>
      <div>
        <H className="font-semibold text-slate-900">{t.reasonsHeading}</H>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
          {item.reasons.length ? (
            item.reasons.map((r) => (
              <li key={r.check}>
                <span className="font-medium">{checkName(r.check)}</span>: {reasonText(r)}
              </li>
            ))
          ) : (
            <li>{t.reasonUnknown}</li>
          )}
        </ul>
        {item.licence && <LicenceLookup licence={item.licence} H={H} />}
        <H className="mt-4 font-semibold text-slate-900">{t.checksHeading}</H>
        <ul className="mt-2 space-y-1">
          {item.checks.map((c) => (
            <li key={c.type} className="flex flex-wrap items-center gap-2 text-slate-800">
              <span className="font-medium">{checkName(c.type)}</span>
              <StatusBadge status={c.status} kind="check" />
              {"score" in c && typeof c.score === "number" && <span>{formatScore(c.score)}</span>}
            </li>
          ))}
        </ul>
        {decide.isError && <Notice tone="error">{errorMessage(decide.error)}</Notice>}
        <div className="mt-4 flex flex-col gap-3 sm:flex-row">
          <ChoiceButton
            mutation={decide}
            value="APPROVED"
            label={t.approve}
            ariaLabel={t.approveSession(id)}
            describedBy={item.can_approve ? undefined : approveNoteId}
            disabled={!item.can_approve}
          />
          <Button variant="secondary" aria-label={t.declineSession(id)} disabled={decide.isPending} onClick={() => setConfirmDecline(true)}>
            {decide.isPending && decide.variables === "DECLINED" ? t.deciding : t.decline}
          </Button>
        </div>
        {confirmDecline && (
          <ConfirmDialog
            heading={t.declineConfirm.heading(id)}
            consequences={t.declineConfirm.consequences}
            confirmLabel={t.declineConfirm.button}
            pendingLabel={t.declineConfirm.pending}
            pending={decide.isPending}
            danger
            onCancel={() => setConfirmDecline(false)}
            onConfirm={() => decide.mutate("DECLINED")}
          />
        )}
        {!item.can_approve && (
          <p id={approveNoteId} className="mt-2 text-sm text-slate-700">
            {item.settle.length ? t.approveAfterSettling : t.approveUnavailable}
          </p>
        )}
      </div>
      {item.settle.map((check) => (
        <CheckReview key={check} appId={appId} sessionId={id} check={check} images={item.settle_images[check] ?? []} H={H} onSettled={onCheckSettled} />
      ))}
    </div>
  );
}

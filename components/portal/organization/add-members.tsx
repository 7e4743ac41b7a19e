"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field, INPUT_CLASS } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { WALLET_PAGE_PATH } from "@/lib/portal/public-constants";
import type { RosterMember } from "@/lib/portal/roster";
import { errorMessage, fieldErrors, PortalApiError, portalFetch, queryKeys, text } from "../api";
import { ConfirmDialog } from "../confirm-dialog";

const t = text.organization.roster;
const ROLES = ["member", "developer", "admin", "owner"] as const;
export const MAX_MEMBERS_PER_ADD = 500;

type NewMember = { email: string; first_name?: string; last_name?: string; role?: string };
type Created = RosterMember & { activation_link: string | null; invite_method: string; reactivated?: true };
export type AddResult = { created: Created[]; skipped: Array<{ email: string; reason: string }>; notified: boolean };

/** The portal's add: `POST /api/portal/organization/members` (the API's addMembers: notify, invite `auto`); the roster and billing are read again. */
function useAddMembers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (members: NewMember[]) => portalFetch<AddResult>("POST", "/api/portal/organization/members", { members }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.roster });
      void queryClient.invalidateQueries({ queryKey: queryKeys.billing });
    },
  });
}

/** Splits pasted text into emails: one per line or separated by commas (or semicolons), blanks dropped. */
export function splitEmails(value: string): string[] {
  return value
    .split(/[\n,;]+/)
    .map((e) => e.trim())
    .filter(Boolean);
}

/** 402 `insufficient_funds` (an invoice open for more than 7 days): what to do, and the way to the wallet. */
export function InsufficientFundsNotice() {
  return (
    <Notice tone="error">
      {t.errors.insufficient_funds}{" "}
      <Link href={WALLET_PAGE_PATH} className="font-semibold underline underline-offset-2">
        {t.topUpLink}
      </Link>
    </Notice>
  );
}

/** Why an add was refused, for a person: 402 with the way to the wallet, else the message. */
function RefusedNotice({ error }: { error: unknown }) {
  if (error instanceof PortalApiError && error.code === "insufficient_funds") return <InsufficientFundsNotice />;
  return <Notice tone="error">{errorMessage(error)}</Notice>;
}

/** What an add did: how many were added (and brought back), who was skipped as a duplicate, the links to deliver. */
export function AddResultNotice({ result }: { result: AddResult }) {
  const id = useId();
  const back = result.created.filter((c) => c.reactivated).map((c) => c.email);
  const links = result.created.filter((c) => c.activation_link).map((c) => `${c.email} ${c.activation_link}`);
  return (
    <Notice tone="success" title={t.added(result.created.length)}>
      {back.length > 0 && <p>{t.reactivatedNote(back.join(", "))}</p>}
      {result.skipped.length > 0 && <p>{t.skipped(result.skipped.length, result.skipped.map((s) => s.email).join(", "))}</p>}
      {result.notified && <p>{t.notified}</p>}
      {links.length > 0 && (
        <div className="mt-3">
          <label htmlFor={`${id}-links`} className="block font-medium">
            {t.linksHeading}
          </label>
          <p id={`${id}-links-hint`} className="mt-1 text-sm">
            {t.linksHint}
          </p>
          <textarea
            id={`${id}-links`}
            readOnly
            aria-describedby={`${id}-links-hint`}
            rows={Math.min(links.length, 6)}
            className={`${INPUT_CLASS} font-mono text-sm`}
            value={links.join("\n")}
          />
          <p className="mt-2">
            <CopyButton value={links.join("\n")} label={t.copyLinks} copyText={t.copyLinks} copiedText={text.common.copied} />
          </p>
        </div>
      )}
    </Notice>
  );
}

/** One member: email, names and role; a refused field is explained next to it and what was typed stays. */
export function AddMemberForm() {
  const add = useAddMembers();
  const [form, setForm] = useState({ email: "", first_name: "", last_name: "", role: "member" });
  const [confirming, setConfirming] = useState(false);
  const set = (field: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setForm({ ...form, [field]: event.currentTarget.value });
  const member: NewMember = {
    email: form.email,
    role: form.role,
    ...(form.first_name.trim() ? { first_name: form.first_name } : {}),
    ...(form.last_name.trim() ? { last_name: form.last_name } : {}),
  };
  const err = (field: string) => (add.isError ? fieldErrors(add.error, `members.0.${field}`) : undefined);
  const fieldsRefused = add.error instanceof PortalApiError && Object.keys(add.error.fields).length > 0;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        add.reset();
        setConfirming(true);
      }}
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field label={t.email} type="email" name="email" autoComplete="off" required value={form.email} onChange={set("email")} errors={err("email")} />
        <div className="mt-4">
          <label htmlFor="add-member-role" className="block font-medium text-slate-900">
            {t.role}
          </label>
          <select id="add-member-role" className={INPUT_CLASS} value={form.role} onChange={set("role")}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {text.organization.roles[role]}
              </option>
            ))}
          </select>
        </div>
        <Field label={t.firstName} name="first_name" autoComplete="off" value={form.first_name} onChange={set("first_name")} errors={err("first_name")} />
        <Field label={t.lastName} name="last_name" autoComplete="off" value={form.last_name} onChange={set("last_name")} errors={err("last_name")} />
      </div>
      {add.isError && (fieldsRefused ? <Notice tone="error">{t.addRefusedFields}</Notice> : <RefusedNotice error={add.error} />)}
      {add.isSuccess && <AddResultNotice result={add.data} />}
      <Button type="submit" className="mt-4" disabled={add.isPending}>
        {t.addOne}
      </Button>
      {confirming && (
        <ConfirmDialog
          heading={t.confirmAddHeading(1)}
          consequences={t.addConsequences}
          confirmLabel={t.confirmAdd(1)}
          pendingLabel={t.adding}
          pending={add.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            add.mutate([member], {
              onSuccess: () => setForm({ email: "", first_name: "", last_name: "", role: "member" }),
              onSettled: () => setConfirming(false),
            })
          }
        />
      )}
    </form>
  );
}

/**
 * Up to 500 pasted emails (role member): one request, all or nothing. A
 * refusal lists each bad email with its position and message, nothing is
 * added, and the text stays to be fixed.
 */
export function AddManyMembersForm() {
  const add = useAddMembers();
  const [value, setValue] = useState("");
  const [sent, setSent] = useState<string[]>([]);
  const [local, setLocal] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const errors = add.isError && add.error instanceof PortalApiError ? add.error.fields : {};
  const lines = Object.entries(errors).map(([field, messages]) => {
    const item = field.match(/^members\.(\d+)\./);
    if (item) {
      const index = Number(item[1]);
      return t.lineError(index + 1, sent[index] ?? "", messages.join(" "));
    }
    return t.itemError(field, messages.join(" "));
  });
  const invalid = local !== null || lines.length > 0;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        add.reset();
        const emails = splitEmails(value);
        if (emails.length === 0) return setLocal(t.noEmails);
        if (emails.length > MAX_MEMBERS_PER_ADD) return setLocal(t.tooMany(emails.length, MAX_MEMBERS_PER_ADD));
        setLocal(null);
        setConfirming(emails);
      }}
    >
      <div className="mt-4">
        <label htmlFor="add-members-emails" className="block font-medium text-slate-900">
          {t.emails}
        </label>
        <p id="add-members-emails-hint" className="mt-1 text-sm text-slate-600">
          {t.emailsHint}
        </p>
        <textarea
          id="add-members-emails"
          name="emails"
          rows={6}
          className={`${INPUT_CLASS} font-mono text-sm`}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? "add-members-emails-hint add-members-emails-error" : "add-members-emails-hint"}
          onChange={(event) => setValue(event.currentTarget.value)}
        />
        {invalid && (
          <div id="add-members-emails-error" role="alert" className="mt-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-950">
            {local ?? (
              <>
                <p className="font-semibold">{t.addRefused}</p>
                <ul className="mt-1 list-disc pl-5" data-testid="add-members-errors">
                  {lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
      {add.isError && lines.length === 0 && <RefusedNotice error={add.error} />}
      {add.isSuccess && <AddResultNotice result={add.data} />}
      <Button type="submit" className="mt-4" disabled={add.isPending}>
        {t.addMany}
      </Button>
      {confirming && (
        <ConfirmDialog
          heading={t.confirmAddHeading(confirming.length)}
          consequences={t.addConsequences}
          confirmLabel={t.confirmAdd(confirming.length)}
          pendingLabel={t.adding}
          pending={add.isPending}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setSent(confirming);
            add.mutate(
              confirming.map((email) => ({ email })),
              { onSuccess: () => setValue(""), onSettled: () => setConfirming(null) },
            );
          }}
        />
      )}
    </form>
  );
}

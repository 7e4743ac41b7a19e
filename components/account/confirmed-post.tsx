"use client";

import { useRef, useState } from "react";
import { ConfirmDialog } from "@/components/portal/confirm-dialog";
import { useHydrated } from "@/components/ui/hydration";

/**
 * One of the account page's plain POST forms (with its CSRF token and app
 * id) whose button first asks for confirmation (the portal's ConfirmDialog);
 * confirming posts the form. The button is disabled until the page is
 * hydrated: without the page's script it cannot ask.
 */
export function ConfirmedPost({
  action,
  csrf,
  appId,
  label,
  buttonText,
  confirm,
}: {
  action: "revoke" | "end-sign-in";
  csrf: string;
  appId: string;
  /** The button's accessible name (names the app). */
  label: string;
  buttonText: string;
  confirm: { heading: string; consequences: readonly string[]; confirmLabel: string; pendingLabel: string };
}) {
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <form ref={form} method="post" action={`/account/${action}`} className="mt-2">
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="app_id" value={appId} />
      <button
        type="button"
        aria-label={label}
        disabled={!hydrated}
        aria-busy={hydrated ? undefined : true}
        onClick={() => setAsking(true)}
        className="inline-flex min-h-11 items-center rounded-lg border border-slate-500 bg-white px-4 py-2 font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:text-slate-500"
      >
        {buttonText}
      </button>
      {asking && (
        <ConfirmDialog
          heading={confirm.heading}
          consequences={confirm.consequences}
          confirmLabel={confirm.confirmLabel}
          pendingLabel={confirm.pendingLabel}
          pending={pending}
          danger
          onConfirm={() => {
            setPending(true);
            form.current?.submit();
          }}
          onCancel={() => setAsking(false)}
        />
      )}
    </form>
  );
}

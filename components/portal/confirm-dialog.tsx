"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button, BUTTON_BASE } from "@/components/ui/button";
import { text } from "./api";

const DANGER_BUTTON = `${BUTTON_BASE} bg-red-700 text-white hover:bg-red-800 disabled:bg-slate-400`;
const PRIMARY_BUTTON = `${BUTTON_BASE} bg-blue-700 text-white hover:bg-blue-800 disabled:bg-slate-400`;

/**
 * A confirmation before an action with consequences: a modal `<dialog>`
 * (the rest of the page inert, Escape cancels) named by its question and
 * described by the consequences, focus on Cancel; mounted while asked,
 * focus back where it was when it goes. `children` (a choice that shapes
 * the action, e.g. when an old key stops working) go below the consequences.
 */
export function ConfirmDialog({
  heading,
  consequences,
  confirmLabel,
  pendingLabel,
  pending,
  danger = false,
  onConfirm,
  onCancel,
  children,
}: {
  heading: string;
  consequences: readonly string[];
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const id = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    cancelRef.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-heading`}
      aria-describedby={`${id}-consequences`}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-xl border border-slate-300 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/50 sm:p-6"
      onCancel={(event) => {
        event.preventDefault();
        if (!pending) onCancel();
      }}
    >
      <h2 id={`${id}-heading`} className="text-lg font-semibold break-words [overflow-wrap:anywhere]">
        {heading}
      </h2>
      <ul id={`${id}-consequences`} className="mt-3 list-disc space-y-1 pl-5 text-slate-800">
        {consequences.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {children}
      <div className="mt-5 flex flex-col gap-3 sm:flex-row">
        <button type="button" className={`${danger ? DANGER_BUTTON : PRIMARY_BUTTON} break-words [overflow-wrap:anywhere]`} disabled={pending} onClick={onConfirm}>
          {pending ? pendingLabel : confirmLabel}
        </button>
        <Button ref={cancelRef} variant="secondary" disabled={pending} onClick={onCancel}>
          {text.common.cancel}
        </Button>
      </div>
    </dialog>
  );
}

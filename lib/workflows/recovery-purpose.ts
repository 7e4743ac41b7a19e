/**
 * Whether a session is an account recovery of the organization API: its
 * frozen workflow's purpose (lib/org/recovery/recovery-workflow.ts). Such a
 * session has no review: a borderline result fails (lib/decisions/decide.ts),
 * and its end is sent as `verify.approved` / `verify.declined`
 * (lib/webhooks/outbox.ts).
 */
export function isRecoverySession(workflowSnapshot: unknown): boolean {
  const purpose = (workflowSnapshot as { purpose?: unknown } | null | undefined)?.purpose;
  return typeof purpose === "string" && purpose.startsWith("recovery");
}

import type { FlowState, FlowStep, LivenessInput } from "../api/types";

/** Steps the person does on this page (those with `input`); derived checks only appear on the start page. */
export function personSteps(flow: FlowState): FlowStep[] {
  return flow.steps.filter((s) => !s.derived && s.input && typeof (s.input as { endpoint?: unknown }).endpoint === "string" && STEP_TYPES.has(s.type));
}

/** The step types this page knows how to run. */
export const STEP_TYPES: ReadonlySet<string> = new Set(["id_verification", "liveness", "location", "face_uniqueness", "credential"]);

/** Steps that need a camera (the document step can also take an uploaded file). */
export function needsCamera(steps: FlowStep[]): boolean {
  return steps.some((s) => s.type === "liveness" || s.type === "face_uniqueness");
}

/**
 * Whether a step is behind the person: it has a result, except liveness,
 * which is behind only once passed or out of tries (`attempts` counts the
 * challenges issued, so tries can run out before any result is recorded).
 */
export function isStepDone(step: FlowStep): boolean {
  if (step.type === "liveness" && step.status !== "passed") {
    const max = (step.input as unknown as LivenessInput | undefined)?.max_attempts ?? 1;
    return step.attempts >= max;
  }
  return step.status !== "pending";
}

/** The index of the first step still to do (steps.length when all are done). */
export function firstOpenStep(steps: FlowStep[]): number {
  const i = steps.findIndex((s) => !isStepDone(s));
  return i === -1 ? steps.length : i;
}

import type { Feature, RanStatus } from "@/lib/contract-vocabulary";

/** A check a hosted step ran, as the step answers it (the contract's FlowCheck, lib/openapi/operations/hosted-flow.ts). */
export type RanCheck<T extends Feature> = {
  type: T;
  status: RanStatus;
  score?: number;
  data: Record<string, unknown>;
  error: { code: string; message: string } | null;
};

/** The checks the document, selfie and liveness steps answer (the location step answers its own check alone). */
export type StepCheck = { [T in Exclude<Feature, "location">]: RanCheck<T> }[Exclude<Feature, "location">];

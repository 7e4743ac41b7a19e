import type { FlowApi } from "../api/flow-api";
import type { FlowStep } from "../api/types";

/** What every step component receives from the flow. */
export type StepProps = {
  step: FlowStep;
  api: FlowApi;
  appName: string;
  /** The person is done with this step (passed, or failed for good and chose to continue). */
  onDone: () => void;
  /** The "continue on your phone" panel, shown where a camera problem blocks this device. */
  handoff: React.ReactNode;
  /** This session's link, to reopen the page outside an iframe that blocks the camera. */
  newTabUrl: string | null;
  /** A phone or tablet (camera/device-kind.ts): camera help for phones, the camera app as a file picker, no QR hand-off. */
  phone: boolean;
};

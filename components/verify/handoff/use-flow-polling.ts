"use client";

import { useEffect, useRef } from "react";
import type { FlowApi } from "../api/flow-api";
import type { FlowState } from "../api/types";

export const POLL_INTERVAL_MS = 2500;

/**
 * While `active`, reads `GET /api/v2/flow` every few seconds and hands each
 * answer to `onFlow`: the desktop follows a session the phone is working on.
 * Errors are ignored (the next poll tries again); session problems reach
 * the flow through the API client.
 */
export function useFlowPolling(api: FlowApi, active: boolean, onFlow: (flow: FlowState) => void) {
  const callback = useRef(onFlow);
  callback.current = onFlow;
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: number | undefined;
    const poll = async () => {
      try {
        const flow = await api.getFlow();
        if (!stopped) callback.current(flow);
      } catch {
        // Try again at the next tick.
      }
      if (!stopped) timer = window.setTimeout(poll, POLL_INTERVAL_MS);
    };
    timer = window.setTimeout(poll, POLL_INTERVAL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [api, active]);
}

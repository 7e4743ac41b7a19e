"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { TEST_EVENT_KINDS, type TestEventKind } from "@/lib/webhooks/kinds";
import { errorMessage, portalFetch, queryKeys, text } from "../api";
import type { PresentedWebhookEndpoint } from "./types";

const t = text.webhooks;

/** One button per simulated event kind (spec 6 test tooling), sent to the chosen webhook; the delivery log refreshes. */
export function TestEventButtons({ appId, webhooks }: { appId: string; webhooks: PresentedWebhookEndpoint[] }) {
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<string>("");
  const webhookId = webhooks.some((w) => w.webhook_id === target) ? target : (webhooks[0]?.webhook_id ?? "");
  const send = useMutation({
    mutationFn: (kind: TestEventKind) =>
      portalFetch<{ event_id: string; kind: TestEventKind; deliveries: number }>("POST", `/api/portal/apps/${appId}/webhooks/${webhookId}/test`, { kind }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.allDeliveries(appId) }),
  });
  if (webhooks.length === 0) return <p className="mt-2 text-slate-700">{t.testNeedsWebhook}</p>;
  return (
    <>
      <div className="mt-4">
        <label htmlFor="test-event-target" className="block font-medium text-slate-900">
          {t.testTarget}
        </label>
        <select id="test-event-target" className={INPUT_CLASS} value={webhookId} onChange={(event) => setTarget(event.currentTarget.value)}>
          {webhooks.map((w) => (
            <option key={w.webhook_id} value={w.webhook_id}>
              {w.url}
            </option>
          ))}
        </select>
      </div>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {TEST_EVENT_KINDS.map((kind) => (
          <li key={kind} className="rounded-lg border border-slate-200 p-3">
            <Button
              variant="secondary"
              className="w-full min-h-11 px-3 py-2 text-sm"
              aria-describedby={`test-kind-${kind}-hint`}
              disabled={send.isPending}
              onClick={() => send.mutate(kind)}
            >
              {t.send(t.kinds[kind])}
            </Button>
            <p id={`test-kind-${kind}-hint`} className="mt-2 text-sm text-slate-700">
              {t.kindHints[kind]}
            </p>
          </li>
        ))}
      </ul>
      {send.isError && <Notice tone="error">{errorMessage(send.error)}</Notice>}
      <LiveStatus className="mt-3 text-green-800">{send.isSuccess ? t.sent(t.kinds[send.data.kind], send.data.event_id) : ""}</LiveStatus>
    </>
  );
}

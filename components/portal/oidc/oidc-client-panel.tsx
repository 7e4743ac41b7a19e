"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import { KNOWN_SCOPES } from "@/lib/tenancy/scopes";
import { errorMessage, fieldErrors, portalFetch, queryKeys, text } from "../api";
import { RemovableList } from "../removable-list";
import { useServerSnapshot } from "../server-snapshot";
import { SecretsOnce } from "../apps/secrets-once";
import { ConfirmDialog } from "../confirm-dialog";
import { keepForPhrase, RollWindowSelect, timeUntil } from "../roll-window-select";
import { DEFAULT_ROLL_WINDOW_SECONDS } from "@/lib/tenancy/roll-window";

const t = text.oidc;

export type OidcSettings = {
  app_id: string;
  client_id: string;
  redirect_uris: string[];
  scopes: string[];
  active: boolean;
  /** While a rotated-away secret still works, when it stops. */
  previous_secret_expires_at: string | null;
  discovery_url: string;
};

function CopyRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="mt-3">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="mt-1 flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900">{value}</code>
        <CopyButton value={value} label={text.common.copyLabel(label)} copyText={text.common.copy} copiedText={text.common.copied} />
      </dd>
    </div>
  );
}

/**
 * Client id, rotate the secret (after a confirmation choosing how long the
 * old one keeps working; the new one shown once), exact redirect URIs
 * (removing one is confirmed), scopes, active, discovery URL.
 */
export function OidcClientPanel({ initial }: { initial: OidcSettings }) {
  const appId = initial.app_id;
  const queryClient = useQueryClient();
  const router = useRouter();
  const key = queryKeys.oidc(appId);
  useServerSnapshot(key, initial);
  const settings = useQuery({
    queryKey: key,
    queryFn: () => portalFetch<OidcSettings>("GET", `/api/portal/apps/${appId}/oidc`),
    initialData: initial,
  });
  const saved = (next: OidcSettings) => {
    queryClient.setQueryData(key, next);
    void queryClient.invalidateQueries({ queryKey: key });
  };
  const [secret, setSecret] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [rollWindow, setRollWindow] = useState(DEFAULT_ROLL_WINDOW_SECONDS);
  const [removing, setRemoving] = useState<string | null>(null);
  const rotate = useMutation({
    mutationFn: (seconds: number) => portalFetch<{ client_secret: string }>("POST", `/api/portal/apps/${appId}/oidc/secret`, { expire_previous_in: seconds }),
    onSuccess: (d) => {
      setConfirmRotate(false);
      setSecret(d.client_secret);
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: () => setConfirmRotate(false),
  });
  const addUri = useMutation({
    mutationFn: (uri: string) => portalFetch<OidcSettings>("POST", `/api/portal/apps/${appId}/oidc/redirect-uris`, { uri }),
    onSuccess: (d, _uri) => {
      saved(d);
      const input = document.getElementById("redirect-uri-new") as HTMLInputElement | null;
      if (input) input.value = "";
    },
  });
  const removeUri = useMutation({
    mutationFn: (uri: string) => portalFetch<OidcSettings>("DELETE", `/api/portal/apps/${appId}/oidc/redirect-uris`, { uri }),
    onSuccess: (d) => {
      setRemoving(null);
      saved(d);
    },
    onError: () => setRemoving(null),
  });
  const update = useMutation({
    mutationFn: (patch: { scopes?: string[]; active?: boolean }) => portalFetch<OidcSettings>("PATCH", `/api/portal/apps/${appId}/oidc`, patch),
    onSuccess: (d, patch) => {
      saved(d);
      if (patch.active !== undefined) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.app(appId) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.allApps });
        router.refresh();
      }
    },
  });
  const current = settings.data;
  return (
    <div>
      <p className="mt-1 text-slate-700">{t.intro}</p>
      <Section title={t.clientId} id="client">
        <dl>
          <CopyRow label={t.clientId} value={current.client_id} />
          <CopyRow label={t.discovery} value={current.discovery_url} />
        </dl>
      </Section>

      <Section title={t.secretHeading} id="secret" description={t.secretIntro}>
        {secret && <SecretsOnce heading={t.newSecret} secrets={[{ label: text.apps.clientSecret, value: secret }]} onDone={() => setSecret(null)} />}
        {rotate.isError && <Notice tone="error">{errorMessage(rotate.error)}</Notice>}
        {current.previous_secret_expires_at && <p className="mt-3 font-medium text-amber-900">{t.previousExpires(timeUntil(current.previous_secret_expires_at))}</p>}
        <Button variant="secondary" className="mt-4" disabled={rotate.isPending} onClick={() => setConfirmRotate(true)}>
          {rotate.isPending ? t.rotating : t.rotate}
        </Button>
        {confirmRotate && (
          <ConfirmDialog
            heading={t.rotateConfirm.heading}
            consequences={t.rotateConfirm.consequences(keepForPhrase(rollWindow))}
            confirmLabel={t.rotateConfirm.button}
            pendingLabel={t.rotateConfirm.pending}
            pending={rotate.isPending}
            onCancel={() => setConfirmRotate(false)}
            onConfirm={() => rotate.mutate(rollWindow)}
          >
            <RollWindowSelect value={rollWindow} onChange={setRollWindow} disabled={rotate.isPending} />
          </ConfirmDialog>
        )}
      </Section>

      <Section title={t.redirectHeading} id="redirect-uris" description={t.redirectIntro}>
        <RemovableList
          values={current.redirect_uris}
          empty={t.redirectEmpty}
          removeLabel={t.remove}
          removeShort={t.removeShort}
          disabled={removeUri.isPending}
          onRemove={setRemoving}
        />
        {removing && (
          <ConfirmDialog
            heading={t.removeConfirm.heading(removing)}
            consequences={t.removeConfirm.consequences}
            confirmLabel={t.removeConfirm.button}
            pendingLabel={t.removeConfirm.pending}
            pending={removeUri.isPending}
            danger
            onCancel={() => setRemoving(null)}
            onConfirm={() => removeUri.mutate(removing)}
          />
        )}
        {removeUri.isError && <Notice tone="error">{errorMessage(removeUri.error)}</Notice>}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            addUri.mutate(String(new FormData(event.currentTarget).get("uri") ?? ""));
          }}
          noValidate
        >
          {addUri.isError && !fieldErrors(addUri.error, "uri") && <Notice tone="error">{errorMessage(addUri.error)}</Notice>}
          <Field id="redirect-uri-new" label={t.redirectNew} name="uri" type="url" inputMode="url" placeholder="https://" errors={fieldErrors(addUri.error, "uri")} />
          <Button type="submit" className="mt-4" disabled={addUri.isPending}>
            {t.add}
          </Button>
        </form>
      </Section>

      <Section title={t.scopesHeading} id="scopes" description={t.scopesIntro}>
        <form
          key={current.scopes.join(" ")}
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            update.mutate({ scopes: ["openid", ...form.getAll("scope").map(String)] });
          }}
        >
          <fieldset className="mt-3">
            <legend className="sr-only">{t.scopesHeading}</legend>
            {KNOWN_SCOPES.map((scope) => (
              <div key={scope} className="mt-2 flex items-center gap-3">
                <input
                  id={`scope-${scope}`}
                  type="checkbox"
                  name="scope"
                  value={scope}
                  className="h-5 w-5"
                  defaultChecked={scope === "openid" || current.scopes.includes(scope)}
                  disabled={scope === "openid"}
                />
                <label htmlFor={`scope-${scope}`}>{t.scopes[scope]}</label>
              </div>
            ))}
          </fieldset>
          {update.isError && <Notice tone="error">{errorMessage(update.error)}</Notice>}
          <Button type="submit" className="mt-4" disabled={update.isPending}>
            {update.isPending ? text.common.saving : t.saveScopes}
          </Button>
          <LiveStatus className="mt-2 text-green-800">{update.isSuccess && update.variables?.scopes ? t.scopesSaved : ""}</LiveStatus>
        </form>
      </Section>

      <Section title={t.activeHeading} id="active" description={t.activeHint}>
        <div className="mt-3 flex items-center gap-3">
          <input
            id="oidc-active"
            type="checkbox"
            role="switch"
            className="h-5 w-5"
            checked={current.active}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ active: event.currentTarget.checked })}
          />
          <label htmlFor="oidc-active" className="font-medium">
            {t.activeLabel}
          </label>
        </div>
      </Section>
    </div>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { LiveStatus, Notice } from "@/components/ui/notice";
import { Section } from "@/components/ui/section";
import { normaliseFeatures, requiredBy, type Feature } from "@/lib/workflows/schemas";
import type { SettingsGroupDescription } from "@/lib/workflows/settings-description";
import type { presentWorkflow } from "@/lib/workflows/workflows";
import { errorMessage, formatMoney, PortalApiError, portalFetch, queryKeys, text } from "../api";
import { builderBody, initialBuilderState, sortFieldErrors, visibleGroups, type BuilderState, type FeatureOption, type SettingValue } from "./builder-form";
import { SettingControl } from "./setting-control";

const t = text.workflows;

export type PresentedWorkflow = ReturnType<typeof presentWorkflow>;

/** The builder's inputs from the server: the settings description and each feature's availability and price. */
export type BuilderSchema = { groups: SettingsGroupDescription[]; features: FeatureOption[] };

const featureName = (f: Feature) => t.features[f];

function FeatureChoice({
  option,
  state,
  errors,
  onToggle,
}: {
  option: FeatureOption;
  state: BuilderState;
  errors?: string[];
  onToggle: (checked: boolean) => void;
}) {
  const { feature, unavailable, priceCents } = option;
  const by = requiredBy(feature, state.chosen);
  const checked = state.chosen.includes(feature) || by.length > 0;
  // An unavailable check can still be unticked from a workflow that has it.
  const disabled = by.length > 0 || (unavailable !== null && !checked);
  const id = `feature-${feature}`;
  const notes = [`${id}-hint`, by.length ? `${id}-required` : null, unavailable ? `${id}-unavailable` : null, errors?.length ? `${id}-error` : null];
  return (
    <div className="mt-3 flex items-start gap-3" data-testid={id}>
      <input
        id={id}
        type="checkbox"
        className="mt-1 h-5 w-5 shrink-0"
        checked={checked}
        disabled={disabled}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={notes.filter(Boolean).join(" ")}
        onChange={(event) => onToggle(event.currentTarget.checked)}
      />
      <div>
        <label htmlFor={id} className="font-medium text-slate-900">
          {featureName(feature)} <code className="font-mono text-sm text-slate-700">{feature}</code>
        </label>
        <p id={`${id}-hint`} className="text-sm text-slate-700">
          {t.featureHints[feature]} {t.price(formatMoney(priceCents / 100))}
        </p>
        {by.length > 0 && (
          <p id={`${id}-required`} className="mt-1 text-sm font-medium text-blue-900">
            {t.requiredBy(featureName(feature), by.map(featureName).join(", "))}
          </p>
        )}
        {unavailable && (
          <p id={`${id}-unavailable`} className="mt-1 text-sm font-medium text-amber-900">
            {t.unavailable(unavailable)}
          </p>
        )}
        {errors?.length ? (
          <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-800">
            {errors.join(" ")}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Create or edit a workflow. Every control is generated from the settings
 * description; ticking a feature that brings others (age: id_verification)
 * ticks and locks them at once, with why. Saving sends the API's body
 * (builderBody) through the portal route; the server's field errors appear
 * next to their controls, the first one focused, and nothing typed is lost.
 */
export function WorkflowBuilder({ appId, schema, workflow }: { appId: string; schema: BuilderSchema; workflow?: PresentedWorkflow }) {
  const { groups, features: options } = schema;
  const queryClient = useQueryClient();
  const router = useRouter();
  const [state, setState] = useState<BuilderState>(() => initialBuilderState(groups, workflow));
  const [sentFeatures, setSentFeatures] = useState<Feature[]>([]);
  const [announcement, setAnnouncement] = useState("");
  const formRef = useRef<HTMLFormElement>(null);
  const features = normaliseFeatures(state.chosen);

  const isActiveOnCreate = useRef(true);
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof builderBody>) =>
      workflow
        ? portalFetch<{ workflow: PresentedWorkflow }>("PATCH", `/api/portal/apps/${appId}/workflows/${workflow.id}`, body)
        : portalFetch<{ workflow: PresentedWorkflow }>("POST", `/api/portal/apps/${appId}/workflows`, { ...body, is_active: isActiveOnCreate.current }),
    onSuccess: ({ workflow: saved }) => {
      queryClient.setQueryData(queryKeys.workflow(appId, saved.id), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.workflows(appId) });
      if (!workflow) router.push(`/dashboard/apps/${appId}/workflows/${saved.id}`);
      else router.refresh(); // the heading's name and the test session's cost
    },
  });
  const sorted = save.error instanceof PortalApiError ? sortFieldErrors(save.error.fields, sentFeatures, groups) : { byControl: {}, other: [] };
  const errs = sorted.byControl as Record<string, string[] | undefined>;
  const hasFieldErrors = Object.keys(sorted.byControl).length > 0;

  useEffect(() => {
    if (save.isError) formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [save.isError, save.error]);

  const toggle = (feature: Feature, checked: boolean) => {
    const chosen = checked ? [...state.chosen, feature] : state.chosen.filter((f) => f !== feature);
    const added = normaliseFeatures(chosen).filter((f) => !normaliseFeatures(state.chosen).includes(f) && f !== feature);
    setAnnouncement(added.map((f) => t.requiredAdded(featureName(f), featureName(feature))).join(" "));
    setState({ ...state, chosen });
  };
  const setValue = (path: string, value: SettingValue) => setState({ ...state, values: { ...state.values, [path]: value } });

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const body = builderBody(groups, state);
        setSentFeatures(body.features);
        save.mutate(body);
      }}
    >
      <Section title={text.appSettings.renameHeading} id="workflow-name">
        <Field
          label={t.name}
          name="name"
          required
          maxLength={120}
          hint={t.nameHint}
          value={state.name}
          onChange={(event) => setState({ ...state, name: event.currentTarget.value })}
          errors={errs.name}
        />
        {!workflow && (
          <div className="mt-4 flex items-center gap-3">
            <input id="workflow-active-on-create" type="checkbox" className="h-5 w-5" defaultChecked onChange={(event) => (isActiveOnCreate.current = event.currentTarget.checked)} />
            <label htmlFor="workflow-active-on-create">{t.activeOnCreate}</label>
          </div>
        )}
      </Section>

      <Section title={t.builderHeading} id="workflow-checks" description={t.builderIntro}>
        <fieldset aria-describedby={errs.features ? "features-error" : undefined}>
          <legend className="sr-only">{t.checksLegend}</legend>
          {options.map((option) => (
            <FeatureChoice key={option.feature} option={option} state={state} errors={errs[`feature.${option.feature}`]} onToggle={(checked) => toggle(option.feature, checked)} />
          ))}
          {errs.features && (
            <p id="features-error" className="mt-2 text-sm font-medium text-red-800">
              {errs.features.join(" ")}
            </p>
          )}
        </fieldset>
        <LiveStatus className="mt-2 text-sm text-blue-900">{announcement}</LiveStatus>
      </Section>

      <Section title={t.settingsHeading} id="workflow-settings">
        {visibleGroups(groups, features).map((group) => (
          <fieldset key={group.key} className="mt-4 rounded-lg border border-slate-200 p-4" data-testid={`settings-${group.key}`}>
            <legend className="px-1 font-semibold text-slate-900">{t.groupLegend(group.key === "session" ? t.sessionGroup : featureName(group.key))}</legend>
            {errs[`settings.${group.key}`] && <p className="mt-1 text-sm font-medium text-red-800">{errs[`settings.${group.key}`]!.join(" ")}</p>}
            {group.settings.map((setting) => (
              <SettingControl key={setting.path} setting={setting} value={state.values[setting.path]} errors={errs[setting.path]} onChange={(v) => setValue(setting.path, v)} />
            ))}
          </fieldset>
        ))}
      </Section>

      {save.isError && (
        <Notice tone="error">
          {hasFieldErrors ? t.fixFields : errorMessage(save.error)}
          {sorted.other.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {sorted.other.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      <Button type="submit" className="mt-6" disabled={save.isPending}>
        {save.isPending ? (workflow ? text.common.saving : t.creating) : workflow ? t.save : t.create}
      </Button>
      <LiveStatus className="mt-2 text-green-800">{workflow && save.isSuccess ? t.saved : ""}</LiveStatus>
    </form>
  );
}

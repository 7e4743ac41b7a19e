import type { SettingDescription, SettingsGroupDescription } from "@/lib/workflows/settings-description";
import { normaliseFeatures, type Feature } from "@/lib/workflows/schemas";

/**
 * The builder's form state and how it becomes the API's body: pure functions
 * over the settings description (lib/workflows/settings-description.ts), so
 * the controls, the body and the field errors all follow the one schema.
 */

/** What the builder knows about each feature: why it cannot be chosen (else null) and its price. */
export type FeatureOption = { feature: Feature; unavailable: string | null; priceCents: number };

/** A number as typed (kept on error), the ticked options, or a comma-separated list. */
export type SettingValue = string | string[] | boolean;

export type BuilderState = {
  name: string;
  /** What the developer ticked; the workflow's features are normaliseFeatures(chosen). */
  chosen: Feature[];
  values: Record<string, SettingValue>;
};

export type StoredWorkflow = { name: string; features: string[]; settings: Record<string, Record<string, unknown> | undefined> };

function initialValue(setting: SettingDescription, stored: unknown): SettingValue {
  const value = stored === undefined ? setting.default : stored;
  if (setting.kind === "number") return value === null || value === undefined ? "" : String(value);
  if (setting.kind === "choices") return Array.isArray(value) ? value.map(String) : [];
  if (setting.kind === "boolean") return value === true;
  return Array.isArray(value) ? value.map(String).join(", ") : "";
}

/** A new workflow's form (defaults everywhere), or a stored workflow's. */
export function initialBuilderState(groups: readonly SettingsGroupDescription[], workflow?: StoredWorkflow): BuilderState {
  const values: Record<string, SettingValue> = {};
  for (const group of groups) {
    for (const setting of group.settings) values[setting.path] = initialValue(setting, workflow?.settings[group.key]?.[setting.name]);
  }
  return { name: workflow?.name ?? "", chosen: (workflow?.features ?? []) as Feature[], values };
}

/** The groups shown: `session` and the workflow's features. */
export function visibleGroups(groups: readonly SettingsGroupDescription[], features: readonly Feature[]) {
  return groups.filter((g) => g.key === "session" || features.includes(g.key as Feature));
}

function bodyValue(setting: SettingDescription, value: SettingValue | undefined): { value: unknown } | null {
  if (setting.kind === "choices") return { value: Array.isArray(value) ? value : [] };
  if (setting.kind === "boolean") return { value: value === true };
  const text = typeof value === "string" ? value.trim() : "";
  if (setting.kind === "text_list") return { value: text ? text.split(",").map((v) => v.trim()).filter(Boolean) : [] };
  if (text === "") return setting.nullable ? { value: null } : null; // empty: the default
  const number = Number(text);
  return { value: Number.isFinite(number) ? number : text }; // not a number: the server says so next to the field
}

/** The API's create/update body: the normalised features and the settings of each of them and of `session`. */
export function builderBody(groups: readonly SettingsGroupDescription[], state: BuilderState) {
  const features = normaliseFeatures(state.chosen);
  const settings: Record<string, Record<string, unknown>> = {};
  for (const group of visibleGroups(groups, features)) {
    const out: Record<string, unknown> = {};
    for (const setting of group.settings) {
      const v = bodyValue(setting, state.values[setting.path]);
      if (v) out[setting.name] = v.value;
    }
    settings[group.key] = out;
  }
  return { name: state.name, features, settings };
}

/**
 * The server's field errors sorted to the builder's controls: `name`,
 * `features` (the list), `features.<i>` (the i-th feature sent), each
 * setting's path (and anything under it), each group (`settings.<group>`);
 * what matches no control is `other`.
 */
export function sortFieldErrors(fields: Record<string, string[]>, sentFeatures: readonly Feature[], groups: readonly SettingsGroupDescription[]) {
  const byControl: Record<string, string[]> = {};
  const other: string[] = [];
  const add = (key: string, messages: string[]) => (byControl[key] = [...(byControl[key] ?? []), ...messages]);
  const settingPaths = groups.flatMap((g) => g.settings.map((s) => s.path));
  for (const [key, messages] of Object.entries(fields)) {
    const featureIndex = key.match(/^features\.(\d+)$/);
    const feature = featureIndex ? sentFeatures[Number(featureIndex[1])] : undefined;
    const setting = settingPaths.find((p) => key === p || key.startsWith(`${p}.`));
    if (key === "name" || key === "features") add(key, messages);
    else if (feature) add(`feature.${feature}`, messages);
    else if (setting) add(setting, messages);
    else if (groups.some((g) => key === `settings.${g.key}`)) add(key, messages);
    else other.push(...messages.map((m) => `${key}: ${m}`));
  }
  return { byControl, other };
}

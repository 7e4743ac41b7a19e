import { z } from "zod";
import { FEATURES, type Feature } from "./schemas";
import { FEATURE_SETTINGS, SessionSettings } from "./settings";

/**
 * A serialisable description of the workflow settings schema (settings.ts),
 * derived from the zod schemas themselves (their JSON Schema), so the
 * portal's builder shows every setting with its real default and bounds and
 * a setting added to the schema appears there without more code.
 */
export type NumberSetting = {
  kind: "number";
  name: string;
  /** The key of the API's field errors, e.g. `settings.face_match.threshold`. */
  path: string;
  integer: boolean;
  nullable: boolean;
  default: number | null;
  min?: number;
  /** A lower bound the value must be strictly above (`.positive()`). */
  above?: number;
  max?: number;
};
export type ChoicesSetting = { kind: "choices"; name: string; path: string; options: string[]; default: string[]; minItems?: number };
export type TextListSetting = { kind: "text_list"; name: string; path: string; default: string[]; maxLength?: number };
export type BooleanSetting = { kind: "boolean"; name: string; path: string; default: boolean };
export type SettingDescription = NumberSetting | ChoicesSetting | TextListSetting | BooleanSetting;

export type SettingsGroupKey = "session" | Feature;
export type SettingsGroupDescription = { key: SettingsGroupKey; settings: SettingDescription[] };

type JsonSchema = {
  type?: string;
  default?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minItems?: number;
  maxLength?: number;
  enum?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
};

function describeField(group: string, name: string, field: JsonSchema): SettingDescription {
  const path = `settings.${group}.${name}`;
  const variants = field.anyOf ?? [field];
  const value = variants.find((v) => v.type !== "null") ?? field;
  const nullable = variants.some((v) => v.type === "null");
  if (value.type === "number" || value.type === "integer") {
    return {
      kind: "number",
      name,
      path,
      integer: value.type === "integer",
      nullable,
      default: (field.default ?? null) as number | null,
      ...(value.minimum !== undefined ? { min: value.minimum } : {}),
      ...(value.exclusiveMinimum !== undefined ? { above: value.exclusiveMinimum } : {}),
      ...(value.maximum !== undefined ? { max: value.maximum } : {}),
    };
  }
  if (value.type === "boolean") return { kind: "boolean", name, path, default: field.default === true };
  if (value.type === "array" && value.items?.enum) {
    return {
      kind: "choices",
      name,
      path,
      options: value.items.enum,
      default: (field.default ?? []) as string[],
      ...(value.minItems !== undefined ? { minItems: value.minItems } : {}),
    };
  }
  if (value.type === "array" && value.items?.type === "string") {
    return { kind: "text_list", name, path, default: (field.default ?? []) as string[], ...(value.items.maxLength !== undefined ? { maxLength: value.items.maxLength } : {}) };
  }
  throw new Error(`Workflow setting ${path} has a type the builder cannot show: ${JSON.stringify(field)}`);
}

function describeGroup(key: SettingsGroupKey, schema: z.ZodType): SettingsGroupDescription {
  const json = z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
  return { key, settings: Object.entries(json.properties ?? {}).map(([name, field]) => describeField(key, name, field)) };
}

let cached: SettingsGroupDescription[] | undefined;

/** `session` first, then one group per feature in FEATURES order. */
export function describeWorkflowSettings(): SettingsGroupDescription[] {
  cached ??= [describeGroup("session", SessionSettings), ...FEATURES.map((f) => describeGroup(f, FEATURE_SETTINGS[f]))];
  return cached;
}

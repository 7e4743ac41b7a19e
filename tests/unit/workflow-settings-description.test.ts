import { describe, expect, it } from "vitest";
import { portalText } from "@/lib/i18n/portal-en";
import { builderBody, initialBuilderState, sortFieldErrors } from "@/components/portal/workflows/builder-form";
import { FEATURES } from "@/lib/workflows/schemas";
import { resolveSettings } from "@/lib/workflows/settings";
import { describeWorkflowSettings } from "@/lib/workflows/settings-description";

/**
 * The portal's workflow builder is generated from the settings schema: its
 * description must list every setting with the default resolveSettings
 * fills in, a label in the catalogue, and a form of defaults must be a body
 * the API accepts unchanged.
 */
describe("workflow settings description", () => {
  const groups = describeWorkflowSettings();

  it("describes every setting of every feature with the schema's defaults and bounds", () => {
    const defaults = resolveSettings(FEATURES, {}) as Record<string, Record<string, unknown>>;
    expect(groups.map((g) => g.key)).toEqual(["session", ...FEATURES]);
    for (const group of groups) {
      expect(Object.fromEntries(group.settings.map((s) => [s.name, s.default]))).toEqual(defaults[group.key]);
    }
    const threshold = groups.find((g) => g.key === "face_match")!.settings.find((s) => s.name === "threshold");
    expect(threshold).toEqual({ kind: "number", name: "threshold", path: "settings.face_match.threshold", integer: false, nullable: false, default: 0.61, min: 0, max: 1 });
    const radius = groups.find((g) => g.key === "location")!.settings[0];
    expect(radius).toMatchObject({ kind: "number", nullable: true, default: null, above: 0 });
    const documents = groups.find((g) => g.key === "id_verification")!.settings.find((s) => s.name === "allowed_documents");
    expect(documents).toMatchObject({ kind: "choices", options: ["passport", "id_card", "driving_licence"], minItems: 1 });
  });

  it("has a label and hint in the portal catalogue for every setting", () => {
    for (const setting of groups.flatMap((g) => g.settings)) {
      expect(portalText.workflows.settings[setting.path.replace(/^settings\./, "")], setting.path).toBeDefined();
    }
  });

  it("turns a form of defaults into a body the API resolves to the same settings; age brings id_verification", () => {
    const state = { ...initialBuilderState(groups), name: "Adult", chosen: ["age" as const] };
    const body = builderBody(groups, state);
    expect(body.features).toEqual(["id_verification", "age"]);
    expect(resolveSettings(body.features, body.settings)).toEqual(resolveSettings(body.features, {}));
    const typed = builderBody(groups, { ...state, values: { ...state.values, "settings.age.minimum_age": "abc", "settings.session.ttl_seconds": "" } });
    expect(typed.settings.age).toEqual({ minimum_age: "abc" });
    expect(typed.settings.session).toEqual({ reuse_proofs: true }); // an emptied number is left out (the default); a checkbox always has a value
  });

  it("sorts the API's field errors to the builder's controls", () => {
    const sorted = sortFieldErrors(
      { name: ["Name is required"], "features.1": ["no"], "settings.face_match.threshold": ["Too big"], "settings.liveness": ["not a feature"], "settings.x": ["?"] },
      ["liveness", "credential"],
      groups,
    );
    expect(sorted.byControl).toEqual({
      name: ["Name is required"],
      "feature.credential": ["no"],
      "settings.face_match.threshold": ["Too big"],
      "settings.liveness": ["not a feature"],
    });
    expect(sorted.other).toEqual(["settings.x: ?"]);
  });
});

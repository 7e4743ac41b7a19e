import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { processSlot, resetProcessSlots } from "@/lib/process-slots";

/** Values held once per process, whichever copy of a module (a Next chunk) asks (lib/process-slots.ts). */
describe("process slots", () => {
  it("two copies of a module asking for one name share its value, null included", () => {
    const first = processSlot<Map<string, number>>("test.shared");
    const second = processSlot<Map<string, number>>("test.shared");
    expect(first.value).toBeUndefined();
    const made = (first.value ??= new Map([["a", 1]]));
    expect(second.value).toBe(made);
    const nullable = processSlot<string | null>("test.nullable");
    nullable.value = null;
    expect(processSlot<string | null>("test.nullable").value).toBeNull();
    expect(processSlot<string | null>("test.nullable").value ?? "made again").toBe("made again");
    resetProcessSlots("test.shared", "test.nullable");
  });

  it("is read by what lives outside the bundle (server.mjs) under the registered symbol", () => {
    processSlot<string>("test.outside").value = "edge";
    const slots = (globalThis as Record<symbol, Map<string, unknown> | undefined>)[Symbol.for("svc.process-slots")];
    expect(slots?.get("test.outside")).toBe("edge");
    resetProcessSlots("test.outside");
    expect(slots?.has("test.outside")).toBe(false);
  });

  it("a reset forgets only the slots it names, so the next use makes them again", () => {
    const kept = processSlot<number>("test.kept");
    const forgotten = processSlot<number>("test.forgotten");
    kept.value = 1;
    forgotten.value = 2;
    resetProcessSlots("test.forgotten");
    expect([kept.value, forgotten.value]).toEqual([1, undefined]);
    forgotten.value = undefined;
    expect(forgotten.value ??= 3).toBe(3);
    resetProcessSlots("test.kept", "test.forgotten");
    expect(kept.value).toBeUndefined();
  });

  it("is the only place in lib/ that keeps a value on globalThis", () => {
    const lib = path.join(__dirname, "../../lib");
    const holders = (fs.readdirSync(lib, { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file) && file !== "process-slots.ts")
      .filter((file) => /globalThis\s+as\b/.test(fs.readFileSync(path.join(lib, file), "utf8")));
    expect(holders).toEqual([]);
  });
});

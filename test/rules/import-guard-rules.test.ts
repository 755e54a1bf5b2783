import { describe, expect, it } from "vitest";
import { guardedLimitW, heldInPromise, loweredAmps } from "../../src/rules/engine/import-guard-rules.js";
import { loadRules } from "../../src/rules/file/load.js";
import type { ControlRestore } from "../../src/store/index.js";
import { rulesFile } from "./helpers.js";

const UUID = "charger-1";
const NOW = Date.UTC(2026, 0, 15, 1, 0);

const charging = (wrote: "start-charge" | "stop-charge"): ControlRestore => ({
  before: { kind: "ev-command", uuid: UUID, command: "stop-charge", request: {} },
  wrote: { kind: "ev-command", uuid: UUID, command: wrote, request: {} },
});
const limit = (before: number, wrote: number): ControlRestore => ({
  before: { kind: "ev-command", uuid: UUID, command: "adjust-charge-power-limit", request: { limit: before } },
  wrote: { kind: "ev-command", uuid: UUID, command: "adjust-charge-power-limit", request: { limit: wrote } },
});

describe("the import guard's rules", () => {
  it("takes the excess off the current at 230 V, rounding down, and gives up under the charger's minimum", () => {
    // 1.2 kW over at 32 A: 5.2 A less.
    expect(loweredAmps(32, 1200)).toBe(26);
    // 0.1 W over still takes a whole amp.
    expect(loweredAmps(16, 0.1)).toBe(15);
    // 2.3 kW over at 16 A: exactly 6 A is allowed.
    expect(loweredAmps(16, 2300)).toBe(6);
    expect(loweredAmps(16, 2301)).toBeUndefined();
    // A charger whose minimum is 8 A: 7.7 A is under it.
    expect(loweredAmps(16, 1900, 8)).toBeUndefined();
    expect(loweredAmps(16, 1800, 8)).toBe(8);
  });

  it("is on for an optimise trigger with a car and a limit, unless import_guard is false", () => {
    const rule = (optimise: string) =>
      loadRules(
        rulesFile([
          "timezone: UTC",
          "battery: { capacity_kwh: 10, charge_kw: 3 }",
          "tariffs:",
          "  import: { type: fixed, price: 0.3 }",
          "rules:",
          "  - name: optimiser",
          `    when: { optimise: ${optimise} }`,
        ]),
      ).rules.rules[0];
    const car = 'car: { kwh: 7, by: "07:30" }';
    expect(guardedLimitW(rule(`{ import_limit_kw: 13.8, ${car} }`) ?? expect.fail())).toBe(13_800);
    expect(guardedLimitW(rule(`{ import_limit_kw: 13.8, import_guard: false, ${car} }`) ?? expect.fail())).toBe(
      undefined,
    );
    expect(guardedLimitW(rule("{ import_limit_kw: 13.8 }") ?? expect.fail())).toBeUndefined();
    expect(guardedLimitW(rule(`{ ${car} }`) ?? expect.fail())).toBeUndefined();
  });

  it("reads from a window's promise what the guard held back before a restart", () => {
    expect(heldInPromise([], NOW)).toBeUndefined();
    expect(heldInPromise([charging("start-charge")], NOW)).toEqual({ uuid: UUID, held: undefined });
    // The current given back before the restart: nothing held.
    expect(heldInPromise([charging("start-charge"), limit(30, 30)], NOW)).toEqual({ uuid: UUID, held: undefined });
    expect(heldInPromise([charging("start-charge"), limit(30, 24)], NOW)).toEqual({
      uuid: UUID,
      held: {
        kind: "lowered",
        fromA: 30,
        toA: 24,
        since: NOW,
        message: "car current held at 24 A by the import guard before a restart",
      },
    });
    expect(heldInPromise([charging("stop-charge"), limit(30, 12)], NOW)?.held).toMatchObject({
      kind: "stopped",
      fromA: 30,
    });
    expect(heldInPromise([charging("stop-charge")], NOW)?.held).toMatchObject({ kind: "stopped", fromA: undefined });
  });
});

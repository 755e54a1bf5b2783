import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PauseSlots } from "../../src/control/index.js";
import { localMinuteOfDay } from "../../src/time/index.js";
import type { PresetDescriptor } from "../../src/vocabulary/index.js";
import { INVERTER, type LocalGate, startLocalGate } from "./helpers/local-gate.js";

const RESERVE = 71;
const CHARGE = 72;
const DISCHARGE = 73;
const TARGET = "discharge_target_percent";
const requester = { via: "mqtt" as const, name: "timed_export_discharge_target_percent" };

/**
 * Issue 39: neither the demo house's hybrid nor the AC-coupled unit has a discharge target
 * register (HR 272) over the LAN, but both have the battery power limits (HR 111/112); the
 * hybrid's pause is the daemon's, the AC unit's its own HR 318-320. On both the daemon keeps the
 * target, and while an export slot runs and the battery's SoC is at or below it, holds the
 * discharge limit at 0 until the slot ends, then puts it back; all on the simulator's pinned clock.
 */
describe.each([
  { kind: "a hybrid (its pause the daemon's)", scenario: "demo", serial: INVERTER },
  { kind: "an AC-coupled unit (its pause its own registers)", scenario: "ac-coupled", serial: "SA2024G001" },
])("the discharge target held by the daemon on $kind over the LAN", (house) => {
  const INVERTER = house.serial;
  let setup: LocalGate;
  let before: { charge: unknown; discharge: unknown; reserve: unknown };
  beforeAll(async () => {
    setup = await startLocalGate({ lan: true, house });
    before = { charge: await lanValue(CHARGE), discharge: await lanValue(DISCHARGE), reserve: await lanValue(RESERVE) };
    setup.limitsInLanWatts(Number(before.charge));
    // The helper lists the cloud's presets; over the LAN Timed Export lists the target the daemon holds (lan-presets.ts).
    const presets = setup.inverter.presets as PresetDescriptor[];
    for (const [index, preset] of presets.entries())
      if (preset.identifier === "timed-export")
        presets[index] = {
          ...preset,
          parameters: {
            ...preset.parameters,
            [TARGET]: { description: "target", validation: ["optional", "integer", "between:4,100"] },
          },
        };
  }, 30_000);
  afterAll(async () => {
    await setup?.stop();
  });

  const lanValue = (settingId: number) => setup.lanValue(settingId);
  const exportPreset = (fields: Record<string, unknown>) =>
    setup.gate.apply({ kind: "preset", serial: INVERTER, preset: "timed-export", fields }, requester);
  const shown = async () => (await setup.gate.reads.inverters.readPreset(INVERTER, "timed-export"))[TARGET];

  it("reads the reserve as the target until one is set, then the one kept; refuses one outside 4-100", async () => {
    expect(before.reserve).toEqual(expect.any(Number));
    expect(await shown()).toBe(Math.max(4, Number(before.reserve)));
    expect(await exportPreset({ [TARGET]: 45 })).toMatchObject({ ok: true });
    expect(await shown()).toBe(45);
    expect(setup.store.localSnapshots.get(INVERTER, "e2m:discharge-target")).toBeDefined();
    for (const wrong of [3, 101, 45.5]) {
      const outcome = await exportPreset({ [TARGET]: wrong });
      expect(outcome).toMatchObject({ ok: false, refused: true });
    }
    expect(await shown()).toBe(45);
    expect(await lanValue(DISCHARGE)).toBe(before.discharge);
  });

  it("pauses the discharge when the SoC falls to the target in an export slot, and puts it back when the slot ends", async () => {
    const minute = localMinuteOfDay(setup.clock.now(), "UTC");
    const at = (offset: number) => {
      const m = (minute + offset) % 1440;
      return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
    };
    const exporting = await exportPreset({ enabled: true, slots: [{ start_time: at(1), end_time: at(4) }] });
    expect(exporting).toMatchObject({ ok: true });
    // At the target, but before the slot: nothing held.
    let soc = 45;
    const slots = new PauseSlots(
      setup.gate,
      () => [INVERTER],
      setup.clock,
      () => soc,
    );
    await slots.tick();
    expect(await lanValue(DISCHARGE)).toBe(before.discharge);
    soc = 60;
    setup.clock.advance(60_000);
    // The slot runs, the battery above the target: the discharge goes on.
    await slots.tick();
    expect(await lanValue(DISCHARGE)).toBe(before.discharge);

    soc = 45;
    setup.clock.advance(60_000);
    await slots.tick();
    expect(await lanValue(DISCHARGE)).toBe(0);
    expect(await lanValue(CHARGE)).toBe(before.charge);
    const held = setup.store.audit.recent({ target: INVERTER, limit: 3 });
    expect(held.find((row) => row.action === "discharge-target")).toMatchObject({
      source: "daemon",
      requesterName: "discharge-target",
      message: expect.stringContaining(
        `battery at 45%, at or below the discharge target 45%, during the discharge slot ${at(1)}-${at(4)}`,
      ),
    });
    expect(held.find((row) => row.action === `setting:${DISCHARGE}`)).toMatchObject({
      ok: true,
      source: "daemon",
      requesterName: "discharge-target",
    });

    // A little sun lifts the SoC above the target: the slot stays paused to its end, as HR 272 would.
    soc = 47;
    setup.clock.advance(60_000);
    await slots.tick();
    expect(await lanValue(DISCHARGE)).toBe(0);

    setup.clock.advance(60_000);
    await slots.tick();
    expect(await lanValue(DISCHARGE)).toBe(before.discharge);
    const ended = setup.store.audit.recent({ target: INVERTER, limit: 3 });
    expect(ended.find((row) => row.action === "discharge-target")?.message).toContain("ended");
    expect(setup.store.localSnapshots.get(INVERTER, "e2m:pause-limits")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { inverterDataPoint } from "../../src/cloud/schemas/inverter-data.js";
import { inverterFaultOf } from "../../src/sources/cloud/history-items.js";
import { counterValuesOf } from "../../src/sources/cloud/readings.js";
import type { Fetched } from "../../src/sources/index.js";
import { stateOf } from "../../src/telemetry/index.js";

const point = inverterDataPoint.parse({
  time: "2025-06-18 10:05:00",
  status: "NORMAL",
  power: { solar: { power: 900 } },
  today: { solar: 3.2 },
  total: { solar: 812.4 },
  is_metered: true,
});

describe("stateOf: a device's state from the one fetched shape", () => {
  it("gives the energy counters of the newest data point, new or not, and nothing before the first", () => {
    const fetched = (latest: typeof point | undefined): Fetched => ({
      kind: "inverter.points",
      serial: "SD1",
      at: 5,
      points: [],
      counters: latest && counterValuesOf(latest),
    });
    const state = stateOf(fetched(point));
    expect(state).toMatchObject({ kind: "inverter.counters", serial: "SD1", at: 5 });
    expect(state?.kind === "inverter.counters" && state.values).toMatchObject({
      today_solar_energy: 3.2,
      total_solar_energy: 812.4,
      today_grid_import_energy: null,
    });
    // Counters only: the point's live part is not in them.
    expect(state?.kind === "inverter.counters" && state.values).not.toHaveProperty("solar_power");
    expect(stateOf(fetched(undefined))).toBeUndefined();
  });

  it("keeps the uncleared faults and the latest one, without the one that ended (the history's)", () => {
    const fault = (event: string, start_time: string, end_time: string | null) =>
      inverterFaultOf({ event, start_time, end_time }, "Europe/London");
    const active = [fault("Grid lost", "2025-06-18 09:00:00", null)];
    const ended = fault("Battery hot", "2025-06-18 08:00:00", "2025-06-18 08:30:00");
    expect(stateOf({ kind: "inverter.events", serial: "SD1", at: 7, active, ended, latest: active[0] })).toEqual({
      kind: "inverter.events",
      serial: "SD1",
      at: 7,
      active,
      latest: active[0],
    });
  });

  it("names a charger's newest session, open or none, and a smart device's newest point", () => {
    expect(stateOf({ kind: "ev.sessions", uuid: "u", at: 1, sessions: [], session: undefined })).toEqual({
      kind: "ev.session",
      uuid: "u",
      at: 1,
      session: undefined,
    });
    const newest = { power: 42, measuredAt: Date.UTC(2025, 5, 18, 9, 0) };
    const older = { power: 1, measuredAt: Date.UTC(2025, 5, 18, 8, 55) };
    expect(stateOf({ kind: "smart.data", uuid: "p", at: 2, points: [newest, older] })).toEqual({
      kind: "smart.data",
      uuid: "p",
      at: 2,
      point: newest,
    });
    expect(stateOf({ kind: "smart.data", uuid: "p", at: 3, points: [] })).toBeUndefined();
  });
});

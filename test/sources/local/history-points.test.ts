import { describe, expect, it } from "vitest";
import { inverterPointRows } from "../../../src/history/rows.js";
import { inverterPointOf } from "../../../src/sources/local/history-points.js";

describe("the LAN's registers as the history's 5-minute points", () => {
  it("writes the row the history keeps, at the whole second, null for what the registers lack", () => {
    const state = {
      status: "NORMAL",
      solar_power: 900,
      solar_array_1_power: 500,
      solar_array_1_voltage: 310.2,
      grid_power: -120,
      battery_soc: 55,
      consumption_power: 1080,
      today_solar_energy: 3.2,
      total_grid_import_energy: 812.4,
    };
    const at = Date.UTC(2025, 5, 18, 9, 5, 0, 750);

    const rows = inverterPointRows("SD1", [inverterPointOf(state, at)]);

    expect(JSON.stringify(rows)).toBe(
      JSON.stringify([
        {
          kind: "inverter.point",
          device: "SD1",
          at: Date.UTC(2025, 5, 18, 9, 5, 0),
          key: "",
          data: {
            status: "Normal",
            power: {
              solar: { power: 900, arrays: [{ array: 1, voltage: 310.2, current: null, power: 500 }] },
              grid: { voltage: null, current: null, power: -120, frequency: null },
              battery: { percent: 55, power: null, temperature: null },
              consumption: { power: 1080 },
              inverter: {
                temperature: null,
                power: null,
                output_voltage: null,
                output_frequency: null,
                eps_power: null,
              },
            },
            today: {
              solar: 3.2,
              grid: { import: null, export: null },
              battery: { charge: null, discharge: null },
              consumption: null,
              ac_charge: null,
            },
            total: {
              solar: null,
              grid: { import: 812.4, export: null },
              battery: { charge: null, discharge: null },
              consumption: null,
              ac_charge: null,
            },
          },
        },
      ]),
    );
  });

  it("has no status where the registers give none", () => {
    expect(inverterPointOf({}, 0).data.status).toBeNull();
  });
});

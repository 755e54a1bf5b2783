import { describe, expect, it } from "vitest";
import { actionSchema } from "../../src/rules/file/action-schema.js";
import { actionWords } from "../../src/rules/file/action-words.js";
import { templateContext } from "../../src/rules/file/templates.js";

const WINDOW = { start: Date.parse("2026-11-23T01:00:00Z"), end: Date.parse("2026-11-23T04:00:00Z") };
const context = templateContext({
  rule: "overnight",
  window: WINDOW,
  now: WINDOW.start,
  timeZone: "Europe/London",
  prices: { import: 0.085, currency: "GBP" },
  state: { batterySoc: 40 },
  plan: { "plan.target_soc": 95 },
});
const words = (action: unknown, defaultInverter?: string) =>
  actionWords(actionSchema.parse(action), context, { defaultInverter });

describe("actions in words, as the Plan page shows them", () => {
  it("says what a timed preset does, to which SoC, when and on which inverter, its templates filled", () => {
    const slots = [
      { start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: "{{ plan.target_soc }}" },
    ];
    expect(words({ preset: "timed-charge", with: { enabled: true, slots } }, "SD2024G001")).toBe(
      "Timed charge to 95% 01:00–04:00 on inverter SD2024G001",
    );
    expect(words({ preset: "timed-export", with: { enabled: true, slots }, inverter: "SD2" })).toBe(
      "Timed export down to 95% 01:00–04:00 on inverter SD2",
    );
    expect(words({ preset: "timed-charge", with: { enabled: false } })).toBe(
      "Timed charge off on the default inverter",
    );
    expect(words({ preset: "pause-battery", with: { mode: 2 } }, "SD1")).toBe(
      "Hold the battery (pause discharging) on inverter SD1",
    );
    expect(words({ preset: "eco-mode", with: { enabled: true } }, "SD1")).toBe("Eco mode on on inverter SD1");
  });

  it("names a charger's mode and schedule, a setting, a snapshot and a notification without JSON", () => {
    expect(words({ charger: "change-mode", with: { mode: "Boost" } })).toBe("Charger: Boost");
    expect(words({ charger: "start-charge" })).toBe("Charger: start charging");
    expect(
      words({
        charger: "set-schedule",
        with: {
          name: "night",
          periods: [{ start_time: "{{ window.start }}", end_time: "07:30", limit: 32, days: [0] }],
        },
      }),
    ).toBe("Charger: charging schedule “night” 01:00–07:30");
    expect(words({ setting: "Battery Reserve %", value: 10 }, "SD1")).toBe(
      "Set “Battery Reserve %” to 10 on inverter SD1",
    );
    expect(words({ snapshot: "take", name: "weekly" }, "SD1")).toBe(
      "Take the settings snapshot “weekly” on inverter SD1",
    );
    expect(
      words({ notify: { title: "Cheap at {{ prices.import }}", body: "Import is cheap for the next hours." } }),
    ).toBe("Notify “Cheap at 0.085”");
    const other = words({ preset: "battery-operating-range", with: { min_soc: 10, limits: { high: 90 } } }, "SD1");
    expect(other).toBe("Battery operating range (min soc 10, limits high 90) on inverter SD1");
    expect(other).not.toMatch(/[{}"]/);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadRules } from "../../src/rules/file/load.js";
import { previewRules } from "../../src/rules/planners/preview.js";
import { planRuleWindows } from "../../src/rules/planners/rule-windows.js";
import { createTariff, type Tariff } from "../../src/rules/tariffs/index.js";
import { rulesFile, utc } from "./helpers.js";

const FIXTURE = new URL("../fixtures/octopus-agile-prices.example.json", import.meta.url).pathname;
const LONDON = "Europe/London";

describe("rules plan preview", () => {
  it("shows the windows the engine plans: cheapest hours, a battery target and a price below, on Agile", async () => {
    const file = rulesFile(
      [
        `timezone: ${LONDON}`,
        "battery: { capacity_kwh: 10, charge_kw: 2.5, efficiency: 0.9 }",
        "tariffs:",
        "  import: { type: agile, file: agile.json }",
        "  export: { type: fixed, price: 0.15 }",
        "rules:",
        "  - name: dishwasher",
        '    when: { cheapest: { hours: 2, before: "07:00", after: "23:00" } }',
        "    do: [{ snapshot: take }]",
        "  - name: night-charge",
        '    when: { battery: { target_soc: 80, before: "07:00" } }',
        "    do:",
        "      - setting: charge-limit",
        '        value: "{{ plan.target_soc }}"',
        "  - name: cheap-power",
        "    when: { price: { tariff: import, below: 0.1 } }",
        '    do: [{ notify: { title: "cheap at {{ window.average_price }}", body: "import is cheap for a while now" } }]',
      ],
      { "agile.json": readFileSync(FIXTURE, "utf8") },
    );
    const { rules } = loadRules(file);
    const now = utc("2026-11-22T23:00");
    const hours = 24;
    const tariffs: { import?: Tariff; export?: Tariff } = {};
    for (const side of ["import", "export"] as const) {
      const config = rules.tariffs[side];
      if (!config) continue;
      const tariff = createTariff(config, LONDON);
      await tariff.refresh(now);
      expect(tariff.status(now).error).toBeUndefined();
      tariffs[side] = tariff;
    }
    const state = { socPercent: 30, capacityKwh: 10 };

    const preview = previewRules({ rules, tariffs, timeZone: LONDON, now, hours, state });

    const engine = rules.rules.map((rule) =>
      planRuleWindows(rule, {
        rules,
        tariffs,
        timeZone: LONDON,
        now,
        to: now + hours * 3_600_000,
        soc: state.socPercent,
        capacityKwh: state.capacityKwh,
      }),
    );

    expect(preview.rules.map((rule) => rule.name)).toEqual(["dishwasher", "night-charge", "cheap-power"]);
    engine.forEach((planned, index) => {
      const shown = preview.rules[index];
      expect(planned.windows.length, shown?.name).toBeGreaterThan(0);
      expect(shown?.windows.map(({ start, end, trigger, cost }) => ({ start, end, label: trigger, cost }))).toEqual(
        planned.windows.map(({ start, end, label, cost }) => ({ start, end, label, cost })),
      );
      expect(shown?.notes).toEqual(planned.notes);
    });
    // The plan details reach the actions as the engine fills them.
    expect(preview.rules[1]?.windows.map((window) => window.actions)).toEqual(
      engine[1]?.windows.map(() => ["setting charge-limit = 80"]),
    );
    expect(preview.rules[2]?.windows.map((window) => window.actions)).toEqual(
      engine[2]?.windows.map((window) => [`notify "cheap at ${window.averagePrice}"`]),
    );
    // The SoC line is the battery plan's.
    expect(preview.soc).toEqual(engine.flatMap((planned) => planned.soc).sort((a, b) => a.at - b.at));
  });
});

import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  compactRows,
  demoEntityReference,
  ENTITY_REFERENCE_HEADER,
  type EntityRow,
} from "../../scripts/entity-reference-model.js";

describe("docs/entities.md", () => {
  let doc = "";
  beforeAll(async () => {
    doc = await demoEntityReference();
  });

  it("is up to date with the demo house (run npm run docs:entities after changing an entity)", () => {
    expect(doc).toBe(readFileSync("docs/entities.md", "utf8"));
  });

  it("says it is generated, and covers every device kind of the demo house and the rules device", () => {
    expect(doc.startsWith(ENTITY_REFERENCE_HEADER)).toBe(true);
    for (const heading of [
      "## Inverter (GIV-HY5.0, `SD2024G001`)",
      "## Inverter in an EMS plant (GIV-HY3.6, `SE2024G102`)",
      "## EMS (`EM2024E001`)",
      "## EV charger (`EVC2024A001`)",
      "## Smart device (Dishwasher)",
      "## Tariff rules",
    ]) {
      expect(doc).toContain(`\n${heading}`);
    }
    expect(doc).toContain("| sensor | `solar_power` | Solar power | W | power | measurement |");
    expect(doc).toContain("| number | `setting_battery_reserve_percent_limit` | Battery Reserve % Limit | % |  |  |");
    expect(doc).toContain("| time | `setting_ac_charge_{n}_start_time` ({n} = 1–10) | AC Charge {n} Start Time |");
    expect(doc).toContain("| switch | `enabled_{rule}` | {rule} |");
  });
});

describe("compactRows", () => {
  const row = (key: string, name: string, unit?: string): EntityRow => ({ component: "sensor", key, name, unit });

  it("folds a numbered family wherever its members are, and keeps lone or differing rows", () => {
    const rows = compactRows([
      row("slot_2_start", "Slot 2 start"),
      row("other", "Other"),
      row("slot_1_start", "Slot 1 start"),
      row("slot_3_start", "Slot 3 start"),
      row("module_1_capacity", "Module 1 capacity"),
      row("array_1_power", "Array 1 power", "W"),
      row("array_2_power", "Array 2 power", "kW"),
      row("setting_limit_71", "Limit"),
      row("setting_limit_72", "Limit"),
    ]);
    expect(rows.map((r) => [r.key, r.name, r.numbers])).toEqual([
      ["slot_{n}_start", "Slot {n} start", [1, 2, 3]],
      ["other", "Other", undefined],
      ["module_1_capacity", "Module 1 capacity", undefined],
      ["array_1_power", "Array 1 power", undefined],
      ["array_2_power", "Array 2 power", undefined],
      ["setting_limit_71", "Limit", undefined],
      ["setting_limit_72", "Limit", undefined],
    ]);
  });
});

import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { loadRules } from "../../src/rules/file/load.js";
import { CarTopics, carTopicsOf } from "../../src/rules/house/car-topics.js";
import { type CarInputs, carInputsOf } from "../../src/rules/planners/car-windows.js";
import { type PlannedWindow, planRuleWindows } from "../../src/rules/planners/rule-windows.js";
import { createTariff } from "../../src/rules/tariffs/index.js";
import { problemsOf, rulesFile, utc } from "./helpers.js";

const SLOT = 30 * 60_000;
const NOW = utc("2026-01-14T22:00:00");
const DEADLINE = utc("2026-01-15T07:30:00");
const CHEAP = { from: utc("2026-01-15T00:30:00"), to: utc("2026-01-15T04:30:00") };
/** The house uses 0.5 kWh a half-hour (1 kW) all day. */
const HOUSE_KW = 1;

function rules(optimise: string) {
  const file = rulesFile([
    "timezone: UTC",
    "battery: { capacity_kwh: 10, charge_kw: 3 }",
    "ev: { charge_kw: 7 }",
    "tariffs:",
    "  import:",
    "    type: zones",
    "    price: 0.30",
    "    zones:",
    '      - { hours: "00:30-04:30", price: 0.05 }',
    "  export: { type: fixed, price: 0.02 }",
    "rules:",
    "  - name: optimiser",
    `    when: { optimise: ${optimise} }`,
  ]);
  return loadRules(file).rules;
}

function plan(optimise: string, car: Partial<CarInputs> = {}) {
  const file = rules(optimise);
  const [rule] = file.rules;
  const imports = file.tariffs.import;
  const exports = file.tariffs.export;
  if (!rule || !imports || !exports) throw new Error("no rule or tariffs");
  return planRuleWindows(rule, {
    rules: file,
    tariffs: { import: createTariff(imports, "UTC"), export: createTariff(exports, "UTC") },
    timeZone: "UTC",
    now: NOW,
    to: NOW + 24 * 3_600_000,
    soc: 20,
    capacityKwh: undefined,
    house: {
      from: NOW,
      load: Array.from({ length: 48 }, () => HOUSE_KW / 2),
      solar: Array.from({ length: 48 }, () => 0),
      days: 7,
    },
    car: { plugged: true, topic: () => undefined, deliveredKwh: () => 0, ...car },
  });
}

const carWindows = (windows: readonly PlannedWindow[]) => windows.filter((window) => window.label.includes("car"));
const charging = (windows: readonly PlannedWindow[]) =>
  windows.filter((window) => window.plan["plan.mode"] === "charge");
const halfHours = (windows: readonly PlannedWindow[]) =>
  windows.reduce((sum, window) => sum + (window.end - window.start) / SLOT, 0);

/** Per half-hour from NOW, the most the plan's windows draw with the house, kW: 7 for the car, 3 for a grid charge. */
function peaks(windows: readonly PlannedWindow[]): number[] {
  return Array.from({ length: 48 }, (_, index) => {
    const at = NOW + index * SLOT;
    const open = windows.filter((window) => window.start <= at && at < window.end);
    return (
      HOUSE_KW +
      (carWindows(open).length > 0 ? 7 : 0) +
      (open.some((window) => window.plan["plan.mode"] === "charge") ? 3 : 0)
    );
  });
}

describe("the car in an optimise rule's plan", () => {
  it("charges the car in the cheap half-hours before its deadline, through start-charge windows the rule's restore stops", () => {
    const { windows } = plan('{ car: { kwh: 7, by: "07:30" } }');
    const cars = carWindows(windows);
    expect(halfHours(cars)).toBe(2);
    for (const window of cars) {
      expect(window.start).toBeGreaterThanOrEqual(CHEAP.from);
      expect(window.end).toBeLessThanOrEqual(Math.min(CHEAP.to, DEADLINE));
      expect(window.actions?.map((action) => action.charger)).toContain("start-charge");
    }
  });

  it("keeps the house, the battery's grid charging and the car under the import limit where the plan without it goes over", () => {
    const unlimited = plan('{ car: { kwh: 7, by: "07:30" } }');
    expect(Math.max(...peaks(unlimited.windows))).toBe(HOUSE_KW + 7 + 3);

    const limited = plan('{ import_limit_kw: 10, car: { kwh: 7, by: "07:30" } }');
    expect(Math.max(...peaks(limited.windows))).toBeLessThanOrEqual(10);
    // Both still charge in the cheap hours, one beside the other.
    expect(halfHours(carWindows(limited.windows))).toBe(2);
    expect(charging(limited.windows).length).toBeGreaterThan(0);
    for (const window of [...carWindows(limited.windows), ...charging(limited.windows)]) {
      expect(window.start).toBeGreaterThanOrEqual(CHEAP.from);
      expect(window.end).toBeLessThanOrEqual(CHEAP.to);
    }
  });

  it("plans no car while none is plugged in, and says so while the charger has not told", () => {
    const spec = '{ import_limit_kw: 10, car: { kwh: 7, by: "07:30" } }';
    const unplugged = plan(spec, { plugged: false });
    expect(carWindows(unplugged.windows)).toEqual([]);
    expect(charging(unplugged.windows).length).toBeGreaterThan(0);
    const unknown = plan(spec, { plugged: undefined });
    expect(carWindows(unknown.windows)).toEqual([]);
    expect(unknown.notes.some((note) => note.includes("has not said whether a car is plugged in"))).toBe(true);
  });

  it("plans only what is still missing: the charger's delivery since the last deadline counts", () => {
    const { windows } = plan('{ car: { kwh: 7, by: "07:30" } }', { deliveredKwh: () => 3.5 });
    expect(halfHours(carWindows(windows))).toBe(1);
  });

  it("plans from the car as data (the daemon's, or told by hand): the rule's own delivery, or the kWh told", () => {
    const spec = '{ car: { kwh: 7, by: "07:30" } }';
    const state = { plugged: true, topics: {}, deliveredKwh: { optimiser: 3.5, other: 7 } };
    expect(halfHours(carWindows(plan(spec, carInputsOf(state, "optimiser")).windows))).toBe(1);
    // Told by hand, the need replaces the target less what was delivered.
    expect(halfHours(carWindows(plan(spec, carInputsOf(state, "optimiser", 14)).windows))).toBe(4);
    expect(carWindows(plan(spec, carInputsOf({ ...state, plugged: null }, "optimiser")).windows)).toEqual([]);
  });

  it("takes the target from a Home Assistant topic, and a bad payload neither replaces it nor cancels the plan", () => {
    const spec = '{ car: { by: "07:30", target_topic: "home/car/target_kwh" } }';
    const file = rules(spec);
    const logs: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => logs.push(line) });
    const topics = new CarTopics(carTopicsOf(file.rules), logger);
    expect(topics.accept("home/car/target_kwh", "10.5")).toBe(true);
    for (const bad of ["unavailable", "", "-3", "12 kWh", "1e3", "5000"])
      expect(topics.accept("home/car/target_kwh", bad)).toBe(false);
    expect(topics.accept("home/other", "4")).toBe(false);
    expect(topics.value("home/car/target_kwh")).toBe(10.5);
    expect(logs.filter((line) => line.includes("car target on home/car/target_kwh ignored"))).toHaveLength(6);
    expect(logs.at(-1)).toContain("keeping 10.5");
    const { windows } = plan(spec, { topic: (topic) => topics.value(topic) });
    // 10.5 kWh at 7 kW: three half-hours.
    expect(halfHours(carWindows(windows))).toBe(3);
  });

  it("refuses a car with no target, or a SoC target without the car's own SoC", () => {
    const problems = (optimise: string) => problemsOf(() => rules(optimise)).join("\n");
    expect(problems('{ car: { by: "07:30" } }')).toContain("the car needs a target");
    expect(problems('{ car: { by: "07:30", soc: 80, battery_kwh: 60 } }')).toContain("soc_topic");
  });

  it("refuses an import guard with nothing to guard, or not a yes/no, and takes one with a car and a limit", () => {
    const problems = (optimise: string) => problemsOf(() => rules(optimise)).join("\n");
    expect(problems('{ import_guard: true, car: { kwh: 7, by: "07:30" } }')).toContain(
      "import_guard watches the measured import while the car charges: it needs import_limit_kw: in the same optimise trigger",
    );
    expect(problems("{ import_guard: true, import_limit_kw: 10 }")).toContain("it needs car: in the same");
    expect(problems("{ import_guard: true }")).toContain("it needs import_limit_kw: and car: in the same");
    expect(problems('{ import_guard: "off", import_limit_kw: 10, car: { kwh: 7, by: "07:30" } }')).toContain(
      "rules.0.when.optimise.import_guard: Invalid input: expected boolean, received string",
    );
    const guarded = rules('{ import_guard: false, import_limit_kw: 10, car: { kwh: 7, by: "07:30" } }');
    expect(guarded.rules[0]?.when[0]?.optimise?.import_guard).toBe(false);
  });
});

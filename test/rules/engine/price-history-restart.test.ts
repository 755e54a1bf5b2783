import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runRulesPlanCommand } from "../../../src/commands/rules-plan.js";
import { explainedSlotSchema } from "../../../src/optimiser/index.js";
import { houseOutlook } from "../../../src/rules/house/house-forecast.js";
import type { HouseForecast } from "../../../src/rules/planners/optimise-windows.js";
import { openStore } from "../../../src/store/index.js";
import { capture } from "../../helpers/capture.js";
import { eveningPeakPoints } from "../../helpers/house-points.js";
import { type Env, HOUR, INVERTER, type Run, startEnv } from "./helpers.js";

const SLOT = 30 * 60_000;
const DAY = 24 * HOUR;
// A winter night, 22:00 UTC: four cheap half-hours are published ahead, nothing after them.
const START = Date.UTC(2026, 0, 14, 22);
const PUBLISHED = 4;

// As the optimiser's own test of PRICE_FORECAST: cheap now, dear imports and exports that pay in the two weeks before.
const RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 10, charge_kw: 3, efficiency: 0.95 }",
  "tariffs:",
  "  import: { type: agile, file: import.json }",
  "  export: { type: agile, file: export.json }",
  "rules:",
  "  - name: optimiser",
  "    when: { optimise: { reserve_soc: 10, change_cost: 0.02 } }",
];

/** An Agile file (Octopus format, pence) with `pastPrice` over the `pastDays` before START and `ahead` from START. */
function agileFile(path: string, pastPrice: number, pastDays: number, ahead: number): void {
  const slot = (start: number, price: number) => ({
    valid_from: new Date(start).toISOString(),
    valid_to: new Date(start + SLOT).toISOString(),
    value_inc_vat: price * 100,
  });
  const results = [
    ...Array.from({ length: pastDays * 48 }, (_, index) => slot(START - (index + 1) * SLOT, pastPrice)),
    ...Array.from({ length: PUBLISHED }, (_, index) => slot(START + index * SLOT, ahead)),
  ];
  writeFileSync(path, JSON.stringify({ results }));
}

/** The tariffs' files: two weeks of past prices as well (before the restart), or only the half-hours ahead (after it). */
function prices(env: Env, withPast: boolean): void {
  agileFile(join(env.dir, "import.json"), 0.4, withPast ? 14 : 0, 0.05);
  agileFile(join(env.dir, "export.json"), 0.3, withPast ? 14 : 0, 0.01);
}

const chargesNow = (run: Run) => run.runtime.explainedPlan("optimiser")[0]?.action === "charge";

describe("the published prices are kept in the store: a restarted daemon and `rules plan` forecast from them", () => {
  let env: Env;
  const runs: Run[] = [];
  const start = async (house?: (now: number) => HouseForecast | undefined): Promise<Run> => {
    const run = await env.startRuntime({ firstRound: { soc: 20 }, ...(house ? { house } : {}) });
    runs.push(run);
    return run;
  };
  const stop = async (run: Run) => run.runtime.stop();

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES, dryRun: true });
  }, 60_000);

  afterAll(async () => {
    for (const run of runs) await run.runtime.stop();
    await env?.stop();
  });

  it("plans only over the published prices without the history, and charges now with it after a restart", async () => {
    // First start: the tariffs hold the four half-hours ahead only, the store nothing. Nothing after them is known: no charge.
    prices(env, false);
    const alone = await start();
    expect(chargesNow(alone)).toBe(false);
    expect(alone.runtime.explainedPlan("optimiser")).toHaveLength(PUBLISHED);
    await stop(alone);

    // The daemon runs while the tariffs hold two weeks of prices: they go to the store at the refresh.
    prices(env, true);
    const before = await start();
    expect(chargesNow(before)).toBe(true);
    expect(before.store.publishedPrices.between("import", START - 14 * DAY, START + DAY)).toHaveLength(
      14 * 48 + PUBLISHED,
    );
    expect(before.store.publishedPrices.between("export", START - 14 * DAY, START)[0]).toEqual({
      side: "export",
      start: START - 14 * DAY,
      end: START - 14 * DAY + SLOT,
      price: 0.3,
    });
    await stop(before);

    // Restarted when the tariffs hold only what is ahead again (an Agile URL gives the last days only).
    prices(env, false);
    const after = await start();
    const plan = after.runtime.explainedPlan("optimiser");
    // Dear later by the stored history: buy now, as the optimiser's own test of the forecast has it.
    expect(plan[0]?.action).toBe("charge");
    expect(plan.at(-1)?.socPercent).toBeGreaterThan(50);
    expect(after.runtime.list()[0]?.nextWindow?.start).toBe(START);
    // What lies beyond the published prices only shapes the plan: the plan shown is the published half-hours.
    expect(plan).toHaveLength(PUBLISHED);
  }, 60_000);

  it("writes only the prices that changed at a refresh", async () => {
    const run = runs.at(-1) as Run;
    // The store holds the four half-hours ahead as published: a new price for one of them is all that is written.
    agileFile(join(env.dir, "import.json"), 0.4, 0, 0.06);
    const republished = openStore(env.dbPath);
    try {
      const before = republished.publishedPrices.between("import", START, START + DAY);
      expect(before.map((row) => row.price)).toEqual([0.05, 0.05, 0.05, 0.05]);
    } finally {
      republished.close();
    }
    // The next refresh is the tariffs' own: the half-hourly retry while tomorrow's prices are missing.
    await run.advanceTo(START + SLOT);
    expect(run.store.publishedPrices.between("import", START, START + DAY).map((row) => row.price)).toEqual([
      0.06, 0.06, 0.06, 0.06,
    ]);
    // Written: the first start's eight half-hours ahead, the two weeks before (not those eight again), none at the
    // restart (the store had them all), and now the four changed import prices (not the export's, unchanged).
    const stored = env.logs
      .filter((line) => line.includes("published prices stored"))
      .map((line) => (JSON.parse(line) as { slots: number }).slots);
    expect(stored).toEqual([2 * PUBLISHED, 2 * 14 * 48, PUBLISHED]);
  }, 60_000);

  it("`rules plan` on the same store plans as the restarted daemon for the same now and SoC", async () => {
    vi.stubEnv("ENERGY2MQTT_CONFIG", "");
    try {
      prices(env, false);
      for (const run of runs.splice(0)) await stop(run);
      // A week of the house in the store: both learn its use from it.
      const history = openStore(env.dbPath);
      history.history.write(eveningPeakPoints({ device: INVERTER, until: START, days: 7, baseWatts: 300 }));
      // The daemon's house forecast as `rules plan` makes it, from the same store.
      const daemon = await start(
        (at) => houseOutlook(history.history, { now: at, timeZone: "Europe/London", slots: 48 * 2 + 1 }).forecast,
      );
      history.close();
      const config = join(env.dir, "configuration.yaml");
      writeFileSync(config, `rules: rules.yaml\nstore: { path: ${env.dbPath} }\n`);
      const out = capture();
      const err = capture();
      // The clock the restarted daemon planned at (the refresh above moved it on by a half-hour).
      const now = new Date(env.now()).toISOString();
      const code = await runRulesPlanCommand(
        { config, now, hours: "48", soc: "20", json: true },
        out.stream,
        err.stream,
      );
      expect(err.text()).toBe("");
      expect(code).toBe(0);
      const body = JSON.parse(out.text()) as { rules: { name: string; slots: unknown[] }[] };
      const slots = (body.rules[0]?.slots ?? []).map((slot) => explainedSlotSchema.parse(slot));
      const planned = daemon.runtime.explainedPlan("optimiser");
      expect(planned[0]?.action).toBe("charge");
      expect(planned.some((slot) => slot.loadKwh > 0)).toBe(true);
      expect(slots).toEqual(planned);
    } finally {
      vi.unstubAllEnvs();
    }
  }, 60_000);
});

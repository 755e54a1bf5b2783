import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import { runRulesPlanCommand } from "../../src/commands/rules-plan.js";
import { explainedSlotSchema } from "../../src/optimiser/index.js";
import type { PlanView } from "../../src/web/plan-view.js";
import { capture } from "../helpers/capture.js";
import { observe } from "../helpers/mqtt-observer.js";
import { hasChromium, launchChromium } from "./browser-launch.js";
import { DEMO_BATTERY_AND_TARIFF } from "./demo.js";
import { type PlanDaemon, startPlanDaemon } from "./plan-daemon.js";

/** Monday 20:00 GMT: the demo's car is home, plugged in and charging. */
const EVENING = Date.parse("2026-11-16T20:00:00Z");
const SOC_TOPIC = "home/car/soc";
/** The optimiser with the car's SoC target: 80% of 60 kWh by 07:30, its SoC from Home Assistant. Dry run. */
const CAR_RULES = [
  "dry_run: true",
  ...DEMO_BATTERY_AND_TARIFF,
  "ev: { charge_kw: 7 }",
  "rules:",
  "  - name: optimiser",
  "    when:",
  "      optimise:",
  "        reserve_soc: 10",
  `        car: { soc: 80, battery_kwh: 60, soc_topic: ${SOC_TOPIC}, by: "07:30" }`,
].join("\n");

async function planOf(url: string): Promise<PlanView | null> {
  return ((await (await fetch(new URL("api/plan", url))).json()) as { plan: PlanView | null }).plan;
}

async function rulesPlan(options: Parameters<typeof runRulesPlanCommand>[0]) {
  const out = capture();
  const err = capture();
  const code = await runRulesPlanCommand(options, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

describe("rules plan plans the car the running daemon knows, as its Plan page does", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-plan-car-"));
  let daemon: PlanDaemon;
  let plan: PlanView;

  beforeAll(async () => {
    vi.stubEnv("ENERGY2MQTT_CONFIG", "");
    if (hasChromium) await buildWebAssets();
    daemon = await startPlanDaemon(dir, CAR_RULES, EVENING);
    // Home Assistant publishes the car's SoC, retained, on the daemon's broker.
    const ha = await observe(daemon.app.mqttUrl, [SOC_TOPIC]);
    await ha.publish(SOC_TOPIC, "40", true);
    await ha.close();
    const total = (one: PlanView) => one.rules[0]?.explained.at(-1)?.runningCost;
    let previous: PlanView | undefined;
    // The plan once the battery is read, the charger's status and the car's SoC are in, and the store has settled.
    plan = await vi.waitFor(
      async () => {
        const now = await planOf(daemon.url);
        const ready = now?.battery.live && now.car?.plugged === true && now.car.topics[SOC_TOPIC] === 40;
        const settled = ready && previous && total(previous) === total(now) && previous.notes[0] === now.notes[0];
        previous = ready ? now : undefined;
        if (!settled || !now) throw new Error("the daemon never knew the battery, the car and its SoC together");
        return now;
      },
      { timeout: 30_000, interval: 300 },
    );
  }, 90_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await daemon?.stop();
  });

  it("serves the car it plans: plugged in, the topic's SoC, and its charging per half-hour", () => {
    expect(plan.car).toMatchObject({ plugged: true, topics: { [SOC_TOPIC]: 40 } });
    expect(Object.keys(plan.car?.deliveredKwh ?? {})).toEqual(["optimiser"]);
    const slots = plan.rules[0]?.explained ?? [];
    // 80% of 60 kWh from 40%: 24 kWh, all of it before 07:30 (no import limit: the night has room).
    const carKwh = slots.reduce((sum, slot) => sum + (slot.carKwh ?? 0), 0);
    expect(carKwh).toBeCloseTo(24, 6);
    const deadline = Date.parse("2026-11-17T07:30:00Z");
    for (const slot of slots) if ((slot.carKwh ?? 0) > 0) expect(slot.start).toBeLessThan(deadline);
  });

  it("rules plan's table and JSON are the Plan API's, the car's state taken from the daemon", async () => {
    const options = { config: daemon.configFile, now: new Date(plan.from).toISOString(), hours: String(plan.hours) };
    const text = await rulesPlan(options);
    expect(text.err).toBe("");
    expect(text.code).toBe(0);
    expect(text.out).toContain(
      `Car: plugged in, from the running daemon at ${daemon.url} (the Plan page's car): 40 on ${SOC_TOPIC}\n`,
    );
    expect(text.out).toContain(`Expected over these hours: ${plan.expectedCost.toFixed(2)} GBP for import less export`);
    const json = await rulesPlan({ ...options, json: true });
    const answer = JSON.parse(json.out) as { rules: { slots: unknown[] }[]; car: Record<string, unknown> };
    expect(answer.car).toMatchObject({ source: "daemon", plugged: true, topics: { [SOC_TOPIC]: 40 } });
    const rows = (answer.rules[0]?.slots ?? []).map((slot) => explainedSlotSchema.parse(slot));
    const served = plan.rules[0]?.explained ?? [];
    expect(rows.map((row) => [row.start, row.action, row.carKwh])).toEqual(
      served.map((slot) => [slot.start, slot.action, slot.carKwh]),
    );
    expect(rows.at(-1)?.runningCost).toBeCloseTo(served.at(-1)?.runningCost ?? Number.NaN, 9);
    // The table shows each half-hour's car charging as served.
    for (const slot of served) {
      const row = text.out
        .split("\n")
        .find((line) => line.startsWith(`  ${rows.find((one) => one.start === slot.start)?.time} `));
      expect(row?.split(/ +/)[9], row).toBe((slot.carKwh ?? 0).toFixed(2));
    }
  });

  it.skipIf(!hasChromium)("the Plan page's half-hour table has a Car column with the served charging", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ locale: "en-GB", timezoneId: "Europe/London" });
      await page.goto(`${daemon.url}#plan`);
      const table = page.locator('table.plan-slots[data-rule="optimiser"]');
      await table.locator("tbody tr").first().waitFor();
      expect(await table.locator("thead th").allTextContents()).toContain("Car");
      // The page asks for the plan again (the same half-hour of the daemon's clock): the car's kWh row by row as served.
      const cells = await table.locator("tbody tr td.car").allTextContents();
      const served = (plan.rules[0]?.explained ?? []).map((slot) => (slot.carKwh ?? 0).toFixed(2));
      expect(served.some((kwh) => kwh !== "0.00")).toBe(true);
      expect(cells).toEqual(served);
    } finally {
      await browser.close();
    }
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import mqtt from "mqtt";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import { runRulesSavingsCommand } from "../../src/commands/rules-savings.js";
import { scenarioSchema } from "../../src/simulator/scenario/schema.js";
import { type HistoryRecord, openStore } from "../../src/store/index.js";
import { dayEndMs, dayOf, dayStartMs, VirtualClock, wallClock } from "../../src/time/index.js";
import type { DailyEnergy, HistoryDevice, HistoryScope } from "../../src/web/api-types.js";
import { hasChromium, launchChromium, openWebPage } from "./browser-launch.js";
import { DEMO_BATTERY_AND_TARIFF, type Demo, demoDaemonConfig, startDemo } from "./demo.js";
import {
  DEMO_EXPORT_PRICE,
  demoImportPrice,
  fillWeek,
  halfHourFlows,
  meteredOf,
  WEEK_DAYS,
  WEEK_DEVICE,
  WEEK_ZONE,
} from "./known-week.js";
import { type MeteredSlots, meteredSlots, monthOf, type SavedDay, savedDays } from "./metered-savings.js";

/*
 * Every total the History page shows, worked out here from the store's rows alone (never the
 * page's or the daemon's code), against the page, its CSV, the API, `rules savings` and MQTT's
 * saved_month: for each range, for each inverter (its energy and cost, and its own saving from its
 * own counters), and the house's (both inverters' counters), whose saving is not its parts' sum.
 * The account lists no device, so the house is the store's two inverters and nothing backfills
 * or polls into it; the daemon's clock is in October, so October is "this month" on MQTT.
 */

const START = Date.parse("2026-10-30T12:00:00Z");
/** A second inverter of the house: no solar, a night charge and an evening load of its own. */
const SECOND = "WEEK0002";
const HALF_HOUR = 1_800_000;
const DAY = 86_400_000;
const RANGES = [
  ["day", DAY],
  ["week", 7 * DAY],
  ["month", 31 * DAY],
  ["year", 366 * DAY],
  ["all", 0],
] as const;
const RULES = [...DEMO_BATTERY_AND_TARIFF, "rules: []"].join("\n");
const EMPTY_ACCOUNT = scenarioSchema.parse({
  name: "store-only",
  accounts: [{ id: 1001, username: "owner", site: { id: 61435, name: "Home" } }],
  actors: [{ name: "owner", account: "owner" }],
});

function secondFlows(at: number): Record<string, number> {
  const hour = wallClock(at, WEEK_ZONE).minutes / 60;
  return {
    "0": 0,
    "1": 0,
    "2": 0,
    "3": hour >= 7 && hour < 23 ? 0.12 : 0.04,
    "4": hour < 4 ? 0.5 : 0,
    "5": hour >= 17 && hour < 21 ? 0.35 : 0,
    "6": 0,
  };
}

/** The second inverter's week through the store's API, as known-week.ts writes the first's. */
function fillSecond(storePath: string): void {
  const store = openStore(storePath);
  const records: HistoryRecord[] = [];
  const counters = { import: 10, export: 0, load: 40, solar: 0 };
  const point = (at: number): HistoryRecord => ({
    kind: "inverter.point",
    device: SECOND,
    at,
    key: "",
    data: {
      power: { solar: { power: 0 }, grid: { power: -200 }, battery: { percent: 40 } },
      total: {
        grid: { import: counters.import, export: counters.export },
        consumption: counters.load,
        solar: counters.solar,
      },
    },
  });
  records.push(point(dayStartMs(WEEK_DAYS[0] ?? "", WEEK_ZONE) - 60_000));
  for (const day of WEEK_DAYS) {
    const totals: Record<string, number> = {};
    for (let at = dayStartMs(day, WEEK_ZONE); at < dayEndMs(day, WEEK_ZONE); at += HALF_HOUR) {
      const flows = secondFlows(at);
      records.push({ kind: "flow.half_hour", device: SECOND, at, key: "", data: flows });
      for (const [key, value] of Object.entries(flows)) totals[key] = (totals[key] ?? 0) + value;
      const metered = meteredOf(flows);
      counters.import += metered.import;
      counters.export += metered.export;
      counters.load += metered.load;
      counters.solar += metered.solar;
      records.push(point(at + HALF_HOUR - 60_000));
    }
    records.push({ kind: "flow.day", device: SECOND, at: dayStartMs(day, WEEK_ZONE), key: "", data: totals });
  }
  store.history.write(records);
  store.close();
}

interface InverterDay {
  readonly day: string;
  readonly importKwh: number;
  readonly exportKwh: number;
  readonly cost: number;
}

const num = (value: unknown): number => (typeof value === "number" ? value : Number.NaN);

/** One inverter's days from its flow.day and flow.half_hour rows, priced at the rules' prices. */
function inverterDays(storePath: string, device: string): InverterDay[] {
  const store = openStore(storePath);
  try {
    const range = { device, from: 0, to: Date.UTC(2030, 0, 1) };
    const halfHours = [...store.history.query({ kind: "flow.half_hour", ...range })];
    return [...store.history.query({ kind: "flow.day", ...range })].map((row) => {
      const end = row.at + DAY + HALF_HOUR * 2;
      let cost = 0;
      for (const half of halfHours.filter((one) => one.at >= row.at && one.at < end)) {
        if (dayOf(half.at, WEEK_ZONE) !== dayOf(row.at, WEEK_ZONE)) continue;
        const bought = num(half.data["3"]) + num(half.data["4"]);
        const sold = num(half.data["2"]) + num(half.data["6"]);
        cost += bought * demoImportPrice(half.at) - sold * DEMO_EXPORT_PRICE;
      }
      return {
        day: dayOf(row.at, WEEK_ZONE),
        importKwh: num(row.data["3"]) + num(row.data["4"]),
        exportKwh: num(row.data["2"]) + num(row.data["6"]),
        cost,
      };
    });
  } finally {
    store.close();
  }
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
const pounds = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });
const kwh = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2 });

describe.skipIf(!hasChromium)(
  "History's totals, worked out from the store, on the page, CSV, API, CLI and MQTT",
  () => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-totals-"));
    const storePath = join(dir, "e2m.db");
    let demo: Demo;
    let browser: Browser;
    let page: Page;
    const inverters = new Map<string, InverterDay[]>();
    let slots: MeteredSlots;
    let house: Map<string, SavedDay>;
    /** Each inverter's own days, from its own counters. */
    const own = new Map<string, Map<string, SavedDay>>();
    /** October's house saving against no battery, from the store. */
    let october: { saved: number; actual: number; days: number };

    beforeAll(async () => {
      await buildWebAssets();
      fillWeek(storePath);
      fillSecond(storePath);
      for (const device of [WEEK_DEVICE, SECOND]) inverters.set(device, inverterDays(storePath, device));
      slots = meteredSlots(storePath, START);
      house = savedDays(slots, [WEEK_DEVICE, SECOND]);
      for (const device of [WEEK_DEVICE, SECOND]) own.set(device, savedDays(slots, [device]));
      october = monthOf(house, "2026-10");
      demo = await startDemo(dir, {}, START, RULES, EMPTY_ACCOUNT);
      browser = await launchChromium();
      page = await openWebPage(browser, `${demo.url}#history`);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await demo?.stop();
    });

    it("works out a house whose savings are not either inverter's", () => {
      expect(october.days).toBe(7);
      // The second inverter's night import makes the house differ from the first inverter alone.
      const first = WEEK_DAYS.reduce((sum, day, index) => {
        let saved = 0;
        for (let t = dayStartMs(day, WEEK_ZONE); t < dayEndMs(day, WEEK_ZONE); t += HALF_HOUR) {
          const metered = meteredOf(halfHourFlows(t, index));
          const grid = metered.load - metered.solar;
          const price = demoImportPrice(t);
          saved +=
            Math.max(0, grid) * price -
            Math.max(0, -grid) * DEMO_EXPORT_PRICE -
            (metered.import * price - metered.export * DEMO_EXPORT_PRICE);
        }
        return sum + saved;
      }, 0);
      expect(Math.abs(first - october.saved)).toBeGreaterThan(0.1);
    });

    for (const device of [WEEK_DEVICE, SECOND])
      for (const [range, span] of RANGES)
        it(`${device}, ${range}: each figure is the store's, the inverter's and the house's under their names`, async () => {
          const devices = (await (await fetch(new URL("api/history/devices", demo.url))).json()) as {
            devices: HistoryDevice[];
          };
          const listed = devices.devices.find((one) => one.device === device);
          if (!listed) throw new Error(`${device} is not listed`);
          const to = listed.last + 1;
          const from = span === 0 ? listed.first : Math.max(listed.first, to - span);
          if ((await page.locator("#history-device").inputValue()) !== device)
            await page.locator("#history-device").selectOption(device);
          await page.locator(`button[data-range="${range}"]`).click();
          await page.waitForSelector(`#history-status[data-device="${device}"][data-from="${from}"][data-to="${to}"]`, {
            timeout: 20_000,
          });

          // The days shown: those starting in the range, or the day before it (the page asks from a day early).
          const expected = (inverters.get(device) ?? []).filter(
            (one) => dayStartMs(one.day, WEEK_ZONE) >= from - DAY && dayStartMs(one.day, WEEK_ZONE) < to,
          );
          expect(await page.locator("#history-status").textContent()).toContain(
            `${expected.length} ${expected.length === 1 ? "day" : "days"} of energy`,
          );
          expect(await page.locator("#history-status").textContent()).not.toMatch(/ms\)|day\(s\)|points/);
          expect(await page.locator('th[data-scope="inverter"]').textContent()).toBe(`This inverter (${device})`);
          expect(await page.locator('th[data-scope="house"]').textContent()).toContain("The house");
          const rows = await page.locator(".daily-table tbody tr").evaluateAll((nodes) =>
            nodes.map((node) => ({
              day: node.getAttribute("data-day"),
              cells: [...node.querySelectorAll("td")].map((cell) => cell.textContent),
            })),
          );
          expect(rows.map((row) => row.day)).toEqual(expected.map((one) => one.day).reverse());
          for (const row of rows) {
            const mine = expected.find((one) => one.day === row.day);
            const ours = house.get(row.day ?? "");
            const alone = own.get(device)?.get(row.day ?? "");
            if (!mine || !ours || !alone) throw new Error(`no ${row.day} in the store`);
            expect(row.cells).toEqual([
              kwh.format(round(mine.importKwh, 3)),
              kwh.format(round(mine.exportKwh, 3)),
              kwh.format(round(round(mine.exportKwh, 3) - round(mine.importKwh, 3), 3)),
              pounds.format(round(mine.cost, 2)),
              pounds.format(round(alone.saved, 2)),
              pounds.format(round(ours.actual, 2)),
              pounds.format(round(ours.saved, 2)),
              expect.stringMatching(/^-?£\d+\.\d\d$/),
            ]);
          }
          // The month: the house's whole October, whichever inverter and range.
          const month = page.locator('#house-savings li[data-month="2026-10"]');
          expect(await month.textContent()).toContain("(7 days metered)");
          expect(await month.locator('[data-saved="no-battery"]').textContent()).toBe(pounds.format(october.saved));
          expect(await month.locator('[data-saved="house-cost"]').textContent()).toBe(pounds.format(october.actual));
          // The inverter's own October, from its own counters: its cost is its own, no standing charge.
          const mineOctober = monthOf(own.get(device) ?? new Map(), "2026-10");
          const ownMonth = page.locator('#own-savings li[data-month="2026-10"]');
          expect(await page.locator("#own-savings-heading").textContent()).toContain(`this inverter (${device})`);
          expect(await ownMonth.locator('[data-saved="own-no-battery"]').textContent()).toBe(
            pounds.format(mineOctober.saved),
          );
          expect(await ownMonth.locator('[data-saved="own-cost"]').textContent()).toBe(
            pounds.format(mineOctober.actual),
          );
          expect(await page.locator("[data-parts]").count()).toBe(0);

          // The API, unrounded.
          const api = (await (
            await fetch(new URL(`api/history/days?device=${device}&from=${from}&to=${to}`, demo.url))
          ).json()) as DailyEnergy;
          expect(api.importKwh.map((value) => round(value ?? Number.NaN, 9))).toEqual(
            expected.map((one) => round(one.importKwh, 9)),
          );
          expect(api.cost).toEqual(expected.map((one) => round(one.cost, 2)));
          const apiMonth = api.savings?.house.months.find((one) => one.month === "2026-10");
          expect(apiMonth?.savedVsNoBattery).toBeCloseTo(october.saved, 9);
          expect(apiMonth?.actual).toBeCloseTo(october.actual, 9);
          expect(api.savings?.scope.kind).toBe("inverter");
          const apiOwn = api.savings?.scope.months.find((one) => one.month === "2026-10");
          expect(apiOwn?.savedVsNoBattery).toBeCloseTo(mineOctober.saved, 9);
          expect(apiOwn?.actual).toBeCloseTo(mineOctober.actual, 9);
          expect(api.savings?.parts).toBeNull();

          // The CSV: the days shown, then the month.
          const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#energy-csv").click()]);
          const lines = readFileSync(await download.path(), "utf8")
            .trimEnd()
            .split("\r\n")
            .slice(1);
          expect(lines).toHaveLength(expected.length + 1);
          expected.forEach((mine, index) => {
            const ours = house.get(mine.day);
            const alone = own.get(device)?.get(mine.day);
            expect(lines[index]?.split(",").slice(8)).toEqual([
              String(round(alone?.actual ?? Number.NaN, 2)),
              String(round(alone?.saved ?? Number.NaN, 2)),
            ]);
            expect(lines[index]?.split(",").slice(0, 7)).toEqual([
              mine.day,
              String(round(mine.importKwh, 3)),
              String(round(mine.exportKwh, 3)),
              String(round(round(mine.exportKwh, 3) - round(mine.importKwh, 3), 3)),
              String(round(mine.cost, 2)),
              String(round(ours?.actual ?? Number.NaN, 2)),
              String(round(ours?.saved ?? Number.NaN, 2)),
            ]);
          });
          expect(lines.at(-1)?.split(",").slice(0, 7)).toEqual([
            "2026-10",
            "",
            "",
            "",
            "",
            String(round(october.actual, 2)),
            String(round(october.saved, 2)),
          ]);
          expect(lines.at(-1)?.split(",").slice(8)).toEqual([
            String(round(mineOctober.actual, 2)),
            String(round(mineOctober.saved, 2)),
          ]);
        });

    it("the house, all: its saving beside its inverters' own, and the difference their sum leaves", async () => {
      const listed = (await (await fetch(new URL("api/history/devices", demo.url))).json()) as {
        scopes: HistoryScope[];
      };
      const scope = listed.scopes.find((one) => one.id === "house");
      if (!scope) throw new Error("no house scope");
      await page.locator("#history-device").selectOption("house");
      await page.locator('button[data-range="all"]').click();
      await page.waitForSelector(
        `#history-status[data-device="house"][data-from="${scope.first}"][data-to="${scope.last + 1}"]`,
        { timeout: 20_000 },
      );
      const parts = [WEEK_DEVICE, SECOND].map((device) => monthOf(own.get(device) ?? new Map(), "2026-10").saved);
      const sum = parts.reduce((total, one) => total + one, 0);
      // The first inverter exports at midday while the second imports: the house nets them, each alone does not.
      expect(Math.abs(october.saved - sum)).toBeGreaterThan(0.01);
      const line = page.locator('[data-parts="2026-10"]');
      expect(await line.locator('[data-saved="parts-sum"]').textContent()).toBe(pounds.format(sum));
      expect(await line.locator('[data-saved="parts-difference"]').textContent()).toBe(
        pounds.format(Math.abs(october.saved - sum)),
      );
      expect(await line.textContent()).toContain(october.saved < sum ? " less" : " more");
      // The house has no column of its own beside the house's: its own saving is the house's.
      expect(await page.locator('[data-cell="own-saved-no-battery"]').count()).toBe(0);
      const api = (await (
        await fetch(new URL(`api/history/days?device=house&from=${scope.first}&to=${scope.last + 1}`, demo.url))
      ).json()) as DailyEnergy;
      const part = api.savings?.parts?.find((one) => one.month === "2026-10");
      expect(part?.inverters.map((one) => one.device)).toEqual([WEEK_DEVICE, SECOND]);
      for (const [index, one] of (part?.inverters ?? []).entries())
        expect(one.savedVsNoBattery).toBeCloseTo(parts[index] ?? 0, 9);
      expect(part?.difference).toBeCloseTo(october.saved - sum, 9);
    });

    it("gives October's saving as `rules savings` and MQTT's saved_month give it", async () => {
      const configPath = join(dir, "config.yaml");
      writeFileSync(
        configPath,
        JSON.stringify(
          demoDaemonConfig(demo.simulator, {
            base: demo.base,
            storePath,
            port: 1,
            rules: join(dir, "rules.yaml"),
          }),
        ),
      );
      const out = new PassThrough();
      const err = new PassThrough();
      const chunks: string[] = [];
      out.on("data", (chunk: Buffer) => chunks.push(chunk.toString("utf8")));
      // By default the month so far, as on MQTT: the daemon's clock is in October.
      const code = await runRulesSavingsCommand({ config: configPath, json: true }, out, err, new VirtualClock(START));
      expect(code).toBe(0);
      const cli = JSON.parse(chunks.join("")) as {
        months: { month: string; savedVsNoBattery: number; actual: number }[];
      };
      expect(cli.months.map((one) => one.month)).toEqual(["2026-10"]);
      expect(cli.months[0]?.savedVsNoBattery).toBeCloseTo(october.saved, 9);
      expect(cli.months[0]?.actual).toBeCloseTo(october.actual, 9);

      // One inverter's own, as History shows it: from its own counters, no eco-only figure.
      chunks.length = 0;
      const alone = await runRulesSavingsCommand(
        { config: configPath, json: true, inverter: [SECOND] },
        out,
        err,
        new VirtualClock(START),
      );
      expect(alone).toBe(0);
      const second = JSON.parse(chunks.join("")) as {
        inverters: string[];
        months: { month: string; savedVsNoBattery: number; actual: number; savedVsEcoOnly: number | null }[];
      };
      const secondOctober = monthOf(own.get(SECOND) ?? new Map(), "2026-10");
      expect(second.inverters).toEqual([SECOND]);
      expect(second.months[0]?.savedVsNoBattery).toBeCloseTo(secondOctober.saved, 9);
      expect(second.months[0]?.actual).toBeCloseTo(secondOctober.actual, 9);
      expect(second.months[0]?.savedVsEcoOnly).toBeNull();

      // The daemon's broker (the embedded one speaks MQTT 3.1.1): the retained rules state.
      const client = await mqtt.connectAsync(demo.app.mqttUrl, { reconnectPeriod: 0 });
      try {
        const state = new Promise<string>((resolve) =>
          client.on("message", (_topic, payload) => {
            const text = payload.toString("utf8");
            if (text.includes("saved_month_vs_no_battery")) resolve(text);
          }),
        );
        await client.subscribeAsync(`${demo.base}/rules`);
        const saved = (JSON.parse(await state) as { saved_month_vs_no_battery: number | null })
          .saved_month_vs_no_battery;
        expect(saved).toBe(round(october.saved, 4));
      } finally {
        await client.endAsync(true);
      }
    });
  },
);

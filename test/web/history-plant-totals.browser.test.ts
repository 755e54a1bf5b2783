import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import { scenarioSchema } from "../../src/simulator/scenario/schema.js";
import { openStore } from "../../src/store/index.js";
import { dayOf, dayStartMs } from "../../src/time/index.js";
import type { DailyEnergy, HistoryScope } from "../../src/web/api-types.js";
import { hasChromium, launchChromium, openWebPage } from "./browser-launch.js";
import { DEMO_BATTERY_AND_TARIFF, type Demo, startDemo } from "./demo.js";
import { DEMO_EXPORT_PRICE, demoImportPrice, fillWeek, WEEK_DEVICE, WEEK_ZONE } from "./known-week.js";
import { type MeteredSlots, meteredSlots, monthOf, savedDays } from "./metered-savings.js";

/*
 * History's totals for one inverter, an EMS plant and the house, worked out here from the store's
 * rows alone (never the page's or the daemon's code) against the page, its CSV and the API, for
 * each range: the energy and cost per day, each scope's own saving from its inverters' counters,
 * the house's, and a plant's or the house's against the sum of its inverters' own. The account has an EMS with two inverters: the daemon's backfill puts their last
 * three days in the store from the simulated cloud; beside them a stand-alone inverter the account
 * does not list (a known week, nothing backfills it), so the house is three inverters, the plant two.
 */

const START = Date.parse("2026-10-30T12:00:00Z");
const EMS = "EM2026P001";
const PLANT = [`PL2026A001`, `PL2026A002`] as const;
const DAY = 86_400_000;
const HALF_HOUR = 1_800_000;
const RANGES = [
  ["day", DAY],
  ["week", 7 * DAY],
  ["month", 31 * DAY],
  ["year", 366 * DAY],
  ["all", 0],
] as const;
const RULES = [...DEMO_BATTERY_AND_TARIFF, "rules: []"].join("\n");
const PLANT_ACCOUNT = scenarioSchema.parse({
  name: "plant-and-store",
  accounts: [
    {
      id: 1001,
      username: "owner",
      site: { id: 61435, name: "Home" },
      ems: [
        {
          serial: EMS,
          commission_date: "2026-09-01",
          inverters: [
            { serial: PLANT[0], kind: "hybrid", commission_date: "2026-09-01", battery_kwh: 9.5 },
            { serial: PLANT[1], kind: "ac-coupled", commission_date: "2026-09-01", battery_kwh: 8.2 },
          ],
        },
      ],
    },
  ],
  actors: [{ name: "owner", account: "owner" }],
});

interface Day {
  readonly start: number;
  readonly day: string;
  readonly importKwh: number;
  readonly exportKwh: number;
  /** Null when fewer than 46 of the day's half-hours are in the store (today, so far). */
  readonly cost: number | null;
}
interface ScopeDay extends Day {
  readonly inverters: number;
}

const num = (value: unknown): number => (typeof value === "number" ? value : Number.NaN);
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** One inverter's days from its flow.day and flow.half_hour rows up to `to`, priced at the rules' prices. */
function inverterDays(storePath: string, device: string, to: number): Day[] {
  const store = openStore(storePath);
  try {
    const range = { device, from: 0, to };
    const halfHours = [...store.history.query({ kind: "flow.half_hour", ...range })];
    return [...store.history.query({ kind: "flow.day", ...range })].map((row) => {
      const day = dayOf(row.at, WEEK_ZONE);
      const mine = halfHours.filter((half) => half.at >= row.at && dayOf(half.at, WEEK_ZONE) === day);
      const cost = mine.reduce(
        (sum, half) =>
          sum +
          (num(half.data["3"]) + num(half.data["4"])) * demoImportPrice(half.at) -
          (num(half.data["2"]) + num(half.data["6"])) * DEMO_EXPORT_PRICE,
        0,
      );
      return {
        start: row.at,
        day,
        importKwh: num(row.data["3"]) + num(row.data["4"]),
        exportKwh: num(row.data["2"]) + num(row.data["6"]),
        cost: mine.length >= 46 ? round(cost, 2) : null,
      };
    });
  } finally {
    store.close();
  }
}

/** A scope's days: its inverters' days summed by day, the costs as each inverter's (to the penny) added. */
function scopeDays(storePath: string, members: readonly string[], to: number): ScopeDay[] {
  const days = new Map<number, { day: Day; cost: number | null; inverters: number }>();
  for (const device of members)
    for (const one of inverterDays(storePath, device, to)) {
      const sum = days.get(one.start);
      if (!sum) {
        days.set(one.start, { day: one, cost: one.cost, inverters: 1 });
        continue;
      }
      sum.day = {
        ...sum.day,
        importKwh: sum.day.importKwh + one.importKwh,
        exportKwh: sum.day.exportKwh + one.exportKwh,
      };
      sum.cost = sum.cost === null || one.cost === null ? null : sum.cost + one.cost;
      sum.inverters += 1;
    }
  return [...days.values()]
    .sort((a, b) => a.day.start - b.day.start)
    .map(({ day, cost, inverters }) => ({ ...day, cost: cost === null ? null : round(cost, 2), inverters }));
}

/** The store's inverter and flow rows, as a fingerprint: the same twice a second apart once the backfill is done. */
function fingerprint(storePath: string): string {
  const store = openStore(storePath);
  try {
    return JSON.stringify(
      store.history.summary().filter((row) => row.kind === "inverter.point" || row.kind.startsWith("flow.")),
    );
  } finally {
    store.close();
  }
}

const pounds = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });
const kwh = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2 });

describe.skipIf(!hasChromium)("History's totals for an inverter, an EMS plant and the house, from the store", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-plant-totals-"));
  const storePath = join(dir, "e2m.db");
  let demo: Demo;
  let browser: Browser;
  let page: Page;
  let scopes: HistoryScope[];
  /** Each inverter's metered half-hours, to the last complete one before the daemon's clock started. */
  let slots: MeteredSlots;

  beforeAll(async () => {
    await buildWebAssets();
    fillWeek(storePath);
    demo = await startDemo(dir, {}, START, RULES, PLANT_ACCOUNT);
    // The backfill of the plant's inverters: done when both have three days and the rows stop changing.
    let before = "";
    for (let tries = 0; tries < 60; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = fingerprint(storePath);
      const done = PLANT.every((serial) => scopeDays(storePath, [serial], Date.UTC(2030, 0, 1)).length >= 3);
      if (done && now === before) break;
      before = now;
    }
    const answer = (await (await fetch(new URL("api/history/devices", demo.url))).json()) as {
      scopes: HistoryScope[];
    };
    scopes = answer.scopes;
    // The daemon's months run to the last complete half-hour: the one START is in has not ended.
    slots = meteredSlots(storePath, Math.floor(START / HALF_HOUR) * HALF_HOUR);
    browser = await launchChromium();
    page = await openWebPage(browser, `${demo.url}#history`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  it("offers each inverter, the plant (its two inverters) and the house (all three), saying what is summed", async () => {
    expect(scopes.map((one) => [one.id, one.kind, one.members])).toEqual([
      [PLANT[0], "inverter", [PLANT[0]]],
      [PLANT[1], "inverter", [PLANT[1]]],
      [WEEK_DEVICE, "inverter", [WEEK_DEVICE]],
      [`plant:${EMS}`, "plant", [...PLANT]],
      ["house", "house", [...PLANT, WEEK_DEVICE]],
    ]);
    const options = await page.locator("#history-device option").allTextContents();
    expect(options).toEqual([
      `Inverter ${PLANT[0]} (of plant ${EMS})`,
      `Inverter ${PLANT[1]} (of plant ${EMS})`,
      `Inverter ${WEEK_DEVICE}`,
      `Plant ${EMS}: ${PLANT[0]} + ${PLANT[1]}, summed`,
      `The house: ${PLANT[0]} + ${PLANT[1]} + ${WEEK_DEVICE}, summed`,
    ]);
  });

  const cases = [
    [PLANT[0], "This inverter"],
    [`plant:${EMS}`, "This plant"],
    ["house", "The house"],
  ] as const;
  for (const [id, words] of cases)
    for (const [range, span] of RANGES)
      it(`${id}, ${range}: each day's import, export and cost is its inverters' rows summed, its saving their counters'`, async () => {
        const scope = scopes.find((one) => one.id === id);
        if (!scope) throw new Error(`${id} is not offered`);
        const to = scope.last + 1;
        const from = span === 0 ? scope.first : Math.max(scope.first, to - span);
        if ((await page.locator("#history-device").inputValue()) !== id)
          await page.locator("#history-device").selectOption(id);
        await page.locator(`button[data-range="${range}"]`).click();
        await page.waitForSelector(`#history-status[data-device="${id}"][data-from="${from}"][data-to="${to}"]`, {
          timeout: 20_000,
        });
        const expected = scopeDays(storePath, scope.members, to).filter(
          (one) => one.start >= from - DAY && one.start < to,
        );
        expect(expected.length).toBeGreaterThan(0);
        if (id !== PLANT[0] && range === "all") expect(expected.some((one) => one.cost !== null)).toBe(true);
        // The house's days that only some of its inverters have: counted as such.
        if (id === "house" && range === "all")
          expect(new Set(expected.map((one) => one.inverters))).toEqual(new Set([1, 2, 3]));

        // The page: the scope in words above the columns, the house's savings apart and so named.
        const group = await page.locator('th[data-group="energy"]').textContent();
        expect(group).toContain(words);
        for (const member of scope.members) expect(group).toContain(member);
        expect(await page.locator('th[data-group="savings"]').textContent()).toContain("The house");
        expect(await page.locator("#energy-heading").textContent()).toContain(words.toLowerCase());
        const rows = await page.locator(".daily-table tbody tr").evaluateAll((nodes) =>
          nodes.map((node) => ({
            day: node.getAttribute("data-day"),
            counted: node.querySelector('[data-cell="counted"]')?.textContent ?? null,
            cells: [...node.querySelectorAll("td")].slice(0, 4).map((cell) => cell.textContent),
            own: node.querySelector('[data-cell="own-saved-no-battery"]')?.textContent ?? null,
            house: node.querySelector('[data-cell="saved-no-battery"]')?.textContent ?? null,
          })),
        );
        const own = savedDays(slots, scope.members);
        const house = savedDays(slots, scopes.find((one) => one.id === "house")?.members ?? []);
        const money = (value: number | undefined) => (value === undefined ? "–" : pounds.format(round(value, 2)));
        expect(rows.map((row) => row.day)).toEqual(expected.map((one) => one.day).reverse());
        for (const row of rows) {
          const mine = expected.find((one) => one.day === row.day);
          if (!mine) throw new Error(`no ${row.day} in the store`);
          expect(row.counted).toBe(
            mine.inverters < scope.members.length ? ` (${mine.inverters} of ${scope.members.length} inverters)` : null,
          );
          expect(row.cells).toEqual([
            kwh.format(round(mine.importKwh, 3)),
            kwh.format(round(mine.exportKwh, 3)),
            kwh.format(round(round(mine.exportKwh, 3) - round(mine.importKwh, 3), 3)),
            mine.cost === null ? "–" : pounds.format(mine.cost),
          ]);
          // Its own saving (the house has none apart from the house's), and the house's.
          expect(row.own).toBe(scope.kind === "house" ? null : money(own.get(mine.day)?.saved));
          expect(row.house).toBe(money(house.get(mine.day)?.saved));
        }
        expect(rows.some((row) => row.own !== "–" && row.house !== "–")).toBe(true);

        // The month: the scope's own October, and for several inverters its inverters' own beside it.
        const october = monthOf(own, "2026-10");
        const houseOctober = monthOf(house, "2026-10");
        expect(
          await page.locator('#house-savings li[data-month="2026-10"] [data-saved="no-battery"]').textContent(),
        ).toBe(pounds.format(houseOctober.saved));
        if (scope.kind === "house") expect(await page.locator("#own-savings").count()).toBe(0);
        else {
          const month = page.locator('#own-savings li[data-month="2026-10"]');
          expect(await month.locator('[data-saved="own-no-battery"]').textContent()).toBe(pounds.format(october.saved));
          expect(await month.locator('[data-saved="own-cost"]').textContent()).toBe(pounds.format(october.actual));
        }
        const parts = scope.members.map((member) => monthOf(savedDays(slots, [member]), "2026-10").saved);
        const sum = parts.reduce((total, one) => total + one, 0);
        const line = page.locator('[data-parts="2026-10"]');
        if (scope.members.length === 1) expect(await line.count()).toBe(0);
        else {
          expect(await line.locator('[data-saved="parts-sum"]').textContent()).toBe(pounds.format(sum));
          const apart = Math.abs(october.saved - sum) >= 0.005;
          expect(await line.locator('[data-saved="parts-difference"]').count()).toBe(apart ? 1 : 0);
          if (apart)
            expect(await line.locator('[data-saved="parts-difference"]').textContent()).toBe(
              pounds.format(Math.abs(october.saved - sum)),
            );
        }

        // The API: the scope named, each day's sums unrounded.
        const api = (await (
          await fetch(new URL(`api/history/days?device=${encodeURIComponent(id)}&from=${from}&to=${to}`, demo.url))
        ).json()) as DailyEnergy;
        expect(api.scope).toEqual({ id, kind: scope.kind, label: scope.label, members: scope.members });
        expect(api.importKwh.map((value) => round(value ?? Number.NaN, 9))).toEqual(
          expected.map((one) => round(one.importKwh, 9)),
        );
        expect(api.exportKwh.map((value) => round(value ?? Number.NaN, 9))).toEqual(
          expected.map((one) => round(one.exportKwh, 9)),
        );
        expect(api.cost).toEqual(expected.map((one) => one.cost));
        expect(api.inverters).toEqual(expected.map((one) => one.inverters));
        expect(api.savings?.scope.kind).toBe(scope.kind);
        const apiOwn = api.savings?.scope.months.find((one) => one.month === "2026-10");
        expect(apiOwn?.savedVsNoBattery).toBeCloseTo(october.saved, 9);
        expect(apiOwn?.actual).toBeCloseTo(october.actual, 9);
        expect(api.savings?.house.months.find((one) => one.month === "2026-10")?.savedVsNoBattery).toBeCloseTo(
          houseOctober.saved,
          9,
        );
        const apiParts = api.savings?.parts?.find((one) => one.month === "2026-10");
        if (scope.members.length === 1) expect(api.savings?.parts).toBeNull();
        else {
          expect(apiParts?.sum).toBeCloseTo(sum, 9);
          expect(apiParts?.difference).toBeCloseTo(october.saved - sum, 9);
        }

        // The CSV: the scope in its headers, the days shown.
        const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#energy-csv").click()]);
        const [header = "", ...lines] = readFileSync(await download.path(), "utf8")
          .trimEnd()
          .split("\r\n");
        const prefix =
          scope.kind === "inverter"
            ? `inverter ${id}`
            : scope.kind === "plant"
              ? `plant ${EMS} (${scope.members.join(" + ")} summed)`
              : `house (${scope.members.join(" + ")} summed)`;
        expect(header).toContain(`${prefix}: grid import (kWh)`);
        expect(header).toContain("house: saved vs no battery");
        expected.forEach((mine, index) => {
          const cells = lines[index]?.split(",") ?? [];
          expect(cells.slice(0, 5)).toEqual([
            mine.day,
            String(round(mine.importKwh, 3)),
            String(round(mine.exportKwh, 3)),
            String(round(round(mine.exportKwh, 3) - round(mine.importKwh, 3), 3)),
            mine.cost === null ? "" : String(mine.cost),
          ]);
          if (scope.kind !== "inverter") expect(cells[8]).toBe(String(mine.inverters));
          const alone = own.get(mine.day);
          expect(cells.slice(-2)).toEqual(
            alone ? [String(round(alone.actual, 2)), String(round(alone.saved, 2))] : ["", ""],
          );
        });
      });

  it("a plant's day is the sum of its inverters' days as the page shows them", async () => {
    const plant = scopes.find((one) => one.kind === "plant");
    if (!plant) throw new Error("no plant");
    const to = plant.last + 1;
    const ask = async (device: string) =>
      (await (
        await fetch(
          new URL(`api/history/days?device=${encodeURIComponent(device)}&from=${plant.first}&to=${to}`, demo.url),
        )
      ).json()) as DailyEnergy;
    const [sum, first, second] = await Promise.all([ask(plant.id), ask(PLANT[0]), ask(PLANT[1])]);
    expect(sum.time).toEqual(first.time);
    sum.cost.forEach((cost, index) => {
      const a = first.cost[index];
      const b = second.cost[index];
      expect(cost).toBe(a === null || b === null || a === undefined || b === undefined ? null : round(a + b, 2));
    });
    expect(dayStartMs(dayOf(START, WEEK_ZONE), WEEK_ZONE)).toBe((sum.time.at(-1) ?? 0) * 1000);
  });
});

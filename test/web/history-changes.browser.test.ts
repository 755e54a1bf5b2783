import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import type { RuleEvent, RuleRunResult, RunPreview } from "../../src/rules-runtime/index.js";
import type { AuditEntry } from "../../src/store/index.js";
import { dayEndMs, dayStartMs } from "../../src/time/index.js";
import type { DailyEnergy } from "../../src/web/api-types.js";
import { hasChromium, launchChromium } from "./browser-launch.js";
import { DEMO_RULES, type Demo, startDemo } from "./demo.js";
import {
  DEMO_EXPORT_PRICE,
  demoImportPrice,
  fillWeek,
  halfHourFlows,
  meteredOf,
  storedDailyTotals,
  WEEK_DAYS,
  WEEK_DEVICE,
  WEEK_ZONE,
} from "./known-week.js";

/** The demo's rules and one whose condition cannot hold (a battery is never above 100 %). */
const RULES = [
  DEMO_RULES,
  "  - name: evening-export",
  '    when: { most_expensive: { hours: 2, before: "20:00", after: "16:00", tariff: export } }',
  "    if: { battery_soc_above: 100 }",
  "    do:",
  "      - preset: timed-export",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 20 }] }',
].join("\n");
const COMMAND = { "content-type": "application/json", "x-energy2mqtt-request": "1" };
const WIDTHS = [1280, 390] as const;
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** What a day's battery saved against the same house without one (grid = load less solar), at the demo's prices. */
function savedVsNoBattery(day: string, dayIndex: number): number {
  let saved = 0;
  for (let at = dayStartMs(day, WEEK_ZONE); at < dayEndMs(day, WEEK_ZONE); at += 1_800_000) {
    const metered = meteredOf(halfHourFlows(at, dayIndex));
    const grid = metered.load - metered.solar;
    const price = demoImportPrice(at);
    const without = Math.max(0, grid) * price - Math.max(0, -grid) * DEMO_EXPORT_PRICE;
    saved += without - (metered.import * price - metered.export * DEMO_EXPORT_PRICE);
  }
  return saved;
}

describe.skipIf(!hasChromium)("History and Changes in a real browser against the demo daemon", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-history-"));
  let demo: Demo;
  let browser: Browser;
  let totals: ReturnType<typeof storedDailyTotals>;
  /** Every setting write that reached a simulated inverter, in order. */
  const writes: { serial: string; id: number }[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    await buildWebAssets();
    const storePath = join(dir, "e2m.db");
    fillWeek(storePath);
    totals = storedDailyTotals(storePath);
    demo = await startDemo(dir, {}, undefined, RULES);
    for (const inverter of demo.simulator.world.inverters.values())
      inverter.control.onChange((id) => writes.push({ serial: inverter.serial, id }));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(new URL(path, demo.url), init);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  const audit = async () => (await api<{ entries: AuditEntry[] }>("api/audit?limit=1000")).entries;
  const ruleEvents = async () => (await api<{ events: RuleEvent[] }>("api/rule-events")).events;
  const open = async (width: number, hash: string, locale = "en-GB"): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale, acceptDownloads: true });
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${demo.url}${hash}`);
    return page;
  };
  const showWeek = async (page: Page) => {
    await page.locator("#history-device").selectOption(WEEK_DEVICE);
    await page.locator('button[data-range="week"]').click();
    await page.waitForSelector('[data-days="7"]', { timeout: 20_000 });
  };

  it("seeds a week the store totals day by day, and the API prices and dates it in the daemon's zone", async () => {
    expect(totals.map((day) => day.at)).toEqual(WEEK_DAYS.map((day) => dayStartMs(day, WEEK_ZONE)));
    const last = dayEndMs(WEEK_DAYS[6] ?? "", WEEK_ZONE);
    const days = await api<DailyEnergy>(
      `api/history/days?device=${WEEK_DEVICE}&from=${last - 7 * 86_400_000}&to=${last}`,
    );
    expect(days.timeZone).toBe(WEEK_ZONE);
    expect(days.currency).toBe("GBP");
    expect(days.savings).not.toBeNull();
  });

  for (const width of WIDTHS) {
    it(`draws the known week as one group of bars a day whose figures are the store's totals, unclipped, at ${width} px`, async () => {
      const page = await open(width, "#history");
      await showWeek(page);
      const groups = page.locator("svg.daily g.day");
      expect(await groups.count()).toBe(7);
      const shown = await groups.evaluateAll((nodes) =>
        nodes.map((node) => ({
          day: node.getAttribute("data-day"),
          importKwh: Number(node.getAttribute("data-import")),
          exportKwh: Number(node.getAttribute("data-export")),
          cost: Number(node.getAttribute("data-cost")),
        })),
      );
      expect(shown.map((day) => day.day)).toEqual(WEEK_DAYS);
      expect(shown.map((day) => day.importKwh)).toEqual(totals.map((day) => round(day.importKwh, 3)));
      expect(shown.map((day) => day.exportKwh)).toEqual(totals.map((day) => round(day.exportKwh, 3)));
      // Each day's cost: its half-hours at the demo tariff's prices (the 25th has 50 of them).
      const costs = WEEK_DAYS.map((day, index) => {
        let cost = 0;
        for (let at = dayStartMs(day, WEEK_ZONE); at < dayEndMs(day, WEEK_ZONE); at += 1_800_000) {
          const flows = halfHourFlows(at, index);
          cost +=
            ((flows["3"] ?? 0) + (flows["4"] ?? 0)) * demoImportPrice(at) -
            ((flows["2"] ?? 0) + (flows["6"] ?? 0)) * DEMO_EXPORT_PRICE;
        }
        return round(cost, 2);
      });
      expect(shown.map((day) => day.cost)).toEqual(costs);
      // Bars, not lines: two rects and a cost point a day, every one inside the drawing.
      expect(await page.locator("svg.daily g.day rect").count()).toBe(14);
      expect(await page.locator("svg.daily g.day circle.cost").count()).toBe(7);
      const box = await page.locator("#energy-chart").boundingBox();
      const svg = await page.locator("svg.daily").boundingBox();
      if (!box || !svg) throw new Error("no chart");
      expect(svg.width).toBeLessThanOrEqual(box.width);
      for (const element of await page.locator("svg.daily rect, svg.daily circle, svg.daily text").all()) {
        const shape = await element.boundingBox();
        if (!shape) continue;
        expect(shape.x).toBeGreaterThanOrEqual(svg.x - 0.5);
        expect(shape.x + shape.width).toBeLessThanOrEqual(svg.x + svg.width + 0.5);
      }
      // One day tick a day at desktop width; never more ticks than days.
      const ticks = await page.locator("svg.daily g.day text").count();
      expect(ticks).toBeLessThanOrEqual(7);
      if (width >= 1000) expect(ticks).toBe(7);
      expect(await page.locator("#energy-legend").textContent()).toContain("cost (GBP)");
      // The power chart's canvas fits its box, so its right axis is not cut.
      const canvas = await page.locator("#power-chart canvas").boundingBox();
      const powerBox = await page.locator("#power-chart").boundingBox();
      if (!canvas || !powerBox) throw new Error("no power chart");
      expect(canvas.x + canvas.width).toBeLessThanOrEqual(powerBox.x + powerBox.width + 0.5);
      expect(
        await page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
              .documentElement.scrollWidth,
        ),
      ).toBeLessThanOrEqual(width);
      await page.context().close();
    });
  }

  it("dates the days in the browser's language and names the daemon's zone", async () => {
    for (const locale of ["de-DE", "en-US"]) {
      const page = await open(1280, "#history", locale);
      await showWeek(page);
      const expected = new Intl.DateTimeFormat(locale, { dateStyle: "short", timeZone: WEEK_ZONE }).format(
        dayStartMs(WEEK_DAYS[6] ?? "", WEEK_ZONE),
      );
      expect(await page.locator(".daily-table tbody th").first().textContent()).toBe(expected);
      expect(await page.locator("#history-zone").textContent()).toContain(WEEK_ZONE);
      const firstTick = await page.locator("svg.daily g.day text").first().textContent();
      expect(firstTick).toBe(
        new Intl.DateTimeFormat(locale, {
          weekday: "short",
          day: "numeric",
          month: "short",
          timeZone: WEEK_ZONE,
        }).format(dayStartMs(WEEK_DAYS[0] ?? "", WEEK_ZONE)),
      );
      await page.context().close();
    }
  });

  it("downloads exactly the days shown as CSV, units in the header, the grid net export-positive", async () => {
    const page = await open(390, "#history");
    await showWeek(page);
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#energy-csv").click()]);
    const path = await download.path();
    const lines = readFileSync(path, "utf8").trimEnd().split("\r\n");
    const inverter = `inverter ${WEEK_DEVICE}`;
    expect(lines[0]).toBe(
      `day (${WEEK_ZONE}),${inverter}: grid import (kWh),${inverter}: grid export (kWh),"${inverter}: grid net (kWh, export positive)",${inverter}: cost (GBP),house: cost with standing charge (GBP),house: saved vs no battery (GBP),house: saved vs eco only (GBP),"${inverter}: own cost metered from its counters, no standing charge (GBP)","${inverter}: own saved vs no battery, from its counters (GBP)"`,
    );
    // Seven days, then October's line: the house's whole month.
    expect(lines).toHaveLength(9);
    const chart = await page
      .locator("svg.daily g.day")
      .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute("data-cost"))));
    lines.slice(1, 8).forEach((line, index) => {
      const [day, bought, sold, net, cost, , saved, savedEco] = line.split(",");
      const total = totals[index];
      if (!total) throw new Error("a day too many");
      expect(day).toBe(WEEK_DAYS[index]);
      expect(Number(bought)).toBe(round(total.importKwh, 3));
      expect(Number(sold)).toBe(round(total.exportKwh, 3));
      expect(Number(net)).toBe(round(round(total.exportKwh, 3) - round(total.importKwh, 3), 3));
      expect(Number(cost)).toBe(chart[index]);
      // The savings of src/rules/savings/savings.ts, metered from the counters: against no battery, and eco only.
      expect(Number(saved)).toBe(round(savedVsNoBattery(WEEK_DAYS[index] ?? "", index), 2));
      expect(savedEco).toMatch(/^-?\d+(\.\d+)?$/);
      // The inverter's own, from its own counters: the known week's.
      expect(Number(line.split(",")[9])).toBe(round(savedVsNoBattery(WEEK_DAYS[index] ?? "", index), 2));
    });
    const month = page.locator('#house-savings li[data-month="2026-10"]');
    expect(await month.textContent()).toContain("(7 days metered)");
    const monthSaved = WEEK_DAYS.reduce((sum, day, index) => sum + savedVsNoBattery(day, index), 0);
    expect(await month.locator("strong").first().textContent()).toBe(
      new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" }).format(monthSaved),
    );
    expect(lines[8]?.split(",").slice(0, 7)).toEqual([
      "2026-10",
      "",
      "",
      "",
      "",
      expect.any(String),
      String(round(monthSaved, 2)),
    ]);
    await page.context().close();
  });

  it("sends nothing for run now until it is confirmed, then exactly the preview's actions", async () => {
    const rule = "overnight-top-up";
    // The server refuses a run without the confirmation: nothing reaches the gate or the house.
    const auditBefore = (await audit()).length;
    const writesBefore = writes.length;
    const unconfirmed = await fetch(new URL(`api/rules/${rule}/run`, demo.url), {
      method: "POST",
      headers: COMMAND,
      body: "{}",
    });
    expect(unconfirmed.status).toBe(400);
    expect(((await unconfirmed.json()) as { error: string }).error).toContain('{"confirm": true}');

    for (const width of WIDTHS) {
      const page = await open(width, "#changes");
      await page.locator(`.rule:has(input[data-rule="${rule}"]) button[data-action="run"]`).click();
      const dialog = page.locator("dialog.run-preview[open]");
      await dialog.waitFor();
      const text = (await dialog.textContent()) ?? "";
      expect(text).toMatch(/Timed charge to \d+% \d\d:\d\d–\d\d:\d\d on inverter/);
      expect(text).toMatch(/From .+ to .+\(\d+ h/);
      expect(text).toContain("Europe/London");
      const dialogBox = await dialog.boundingBox();
      expect(dialogBox && dialogBox.x + dialogBox.width).toBeLessThanOrEqual(width);
      // Looking is not acting.
      expect(writes.length).toBe(writesBefore);
      expect((await audit()).length).toBe(auditBefore);
      await dialog.locator('button[data-confirm="cancel"]').click();
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
            "dialog",
          ) === null,
      );
      expect(await page.locator(".result").textContent()).toContain("not run, nothing was sent");
      expect(writes.length).toBe(writesBefore);
      expect((await audit()).length).toBe(auditBefore);
      await page.context().close();
    }

    const page = await open(1280, "#changes");
    await page.locator(`.rule:has(input[data-rule="${rule}"]) button[data-action="run"]`).click();
    await page.locator("dialog.run-preview[open]").waitFor();
    const previewed = await page
      .locator("dialog.run-preview .run-actions li")
      .evaluateAll((nodes) =>
        nodes.map((node) => ({ action: node.getAttribute("data-action"), device: node.getAttribute("data-device") })),
      );
    expect(previewed.length).toBeGreaterThan(0);
    await page.locator('dialog.run-preview button[data-confirm="run"]').click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document
          .querySelector(".result")
          ?.textContent.includes("action(s) sent"),
      undefined,
      { timeout: 20_000 },
    );
    expect(writes.length).toBeGreaterThan(writesBefore);
    const after = (await audit()).slice(0, (await audit()).length - auditBefore);
    const sent = after.filter((entry) => entry.source === "rule" && entry.requesterName === rule);
    expect(sent.map((entry) => ({ device: entry.target, action: entry.action }))).toEqual(
      previewed.map((one) => ({ device: one.device, action: "preset:timed-charge" })),
    );
    expect(after.find((entry) => entry.source === "web")).toMatchObject({ action: "rule:run", target: rule });
    const applied = (await ruleEvents()).filter(
      (event) =>
        event.type === "action" && event.rule === rule && (event.status === "applied" || event.status === "skipped"),
    );
    expect(applied.map((event) => (event.type === "action" ? event.action : "")).slice(-previewed.length)).toEqual(
      previewed.map((one) => one.action),
    );
    await page.context().close();
  });

  it("warns when the rule's condition does not hold and sends nothing unless overridden", async () => {
    const rule = "evening-export";
    const preview = await api<RunPreview>(`api/rules/${rule}/preview`, {
      method: "POST",
      headers: COMMAND,
      body: "{}",
    });
    expect(preview.conditionsHold).toBe(false);
    expect(preview.conditions[0]?.text).toBe("battery SoC above 100%");
    const writesBefore = writes.length;
    const refused = await api<RuleRunResult>(`api/rules/${rule}/run`, {
      method: "POST",
      headers: COMMAND,
      body: JSON.stringify({ confirm: true }),
    });
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain("condition does not hold");
    expect(writes.length).toBe(writesBefore);

    for (const width of WIDTHS) {
      const page = await open(width, "#changes");
      await page.locator(`.rule:has(input[data-rule="${rule}"]) button[data-action="run"]`).click();
      const dialog = page.locator("dialog.run-preview[open]");
      await dialog.waitFor();
      expect(await dialog.locator('[role="alert"]').textContent()).toContain("battery SoC above 100%");
      const confirm = dialog.locator('button[data-confirm="run"]');
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.locator("#run-override").check();
      expect(await confirm.isDisabled()).toBe(false);
      if (width === 390) {
        await confirm.click();
        await page.waitForFunction(
          () =>
            (
              globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }
            ).document
              .querySelector(".result")
              ?.textContent.includes("sent"),
          undefined,
          { timeout: 20_000 },
        );
        expect(writes.length).toBeGreaterThan(writesBefore);
        expect((await audit()).find((entry) => entry.source === "web")).toMatchObject({
          action: "rule:run-override",
          target: rule,
        });
      }
      await page.context().close();
    }
  });

  it("records a dry run in the rule events and the audit log, and shows both", async () => {
    const rule = "battery-by-morning";
    const writesBefore = writes.length;
    const page = await open(390, "#changes");
    await page.locator(`.rule:has(input[data-rule="${rule}"]) button[data-action="dry-run"]`).click();
    await page.waitForSelector(`.events li[data-status="dry-run"]:has-text("${rule}")`, { timeout: 10_000 });
    expect(await page.locator(".events").textContent()).toContain("dry run from the web page: would send Timed charge");
    await page.waitForSelector('table.audit tbody tr:has-text("rule:dry-run")', { timeout: 10_000 });
    const [entry] = await audit();
    expect(entry).toMatchObject({ source: "web", target: rule, action: "rule:dry-run", skipped: true });
    expect(writes.length).toBe(writesBefore);
    // The audit table scrolls sideways at phone width, and says so.
    const region = page.locator('[role="region"][aria-label^="Audit log"]');
    expect(await region.getAttribute("tabindex")).toBe("0");
    expect(await page.locator(".scroll-wrap:has(table.audit) .scroll-cue").isVisible()).toBe(true);
    await page.context().close();
    expect(errors).toEqual([]);
  });
});

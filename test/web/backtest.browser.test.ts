import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadYear } from "../../bench/planner-year/data.js";
import { buildWebAssets } from "../../scripts/build-web.js";
import { type BacktestResult, backtestResultSchema } from "../../src/backtest/result.js";
import { backtestCell } from "../../src/backtest/table-cells.js";
import { BENCH_RULES, writeYearToStore } from "../helpers/planner-year-store.js";
import { axeCheck } from "./axe.js";
import { hasChromium, launchChromium } from "./browser-launch.js";
import { type Demo, startDemo } from "./demo.js";
import { sidewaysOverflow } from "./sideways.js";

/*
 * The Backtest page against a running daemon whose store holds two weeks of the planner-year
 * fixture's metered half-hours and published prices: the page's run gives the same rows as
 * `energy2mqtt backtest --json` on the same store and options; the API refuses bad input in the
 * CLI's words and a second run while one runs; axe and the screen's width at 1280 and 390 px.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const FROM = "2023-01-01";
const TO = "2023-01-14";
/** The rules policy (the slowest) is left out to keep the test fast: the page's box unticked, the CLI told so. */
const POLICIES = ["actual", "no-battery", "eco-only", "rules", "optimiser"];
const run = promisify(execFile);
/** Screenshots for a person to look at, only when asked for: E2M_SCREENSHOTS=/some/dir. */
const SHOTS = process.env.E2M_SCREENSHOTS;

interface Cell {
  readonly tariff: string;
  readonly period: string;
  readonly policy: string;
  readonly text: string;
  readonly cost: number;
  readonly saved: number;
  readonly importKwh: number;
  readonly exportKwh: number;
}

/** What the page's functions see of the browser (the tests compile without the DOM's types). */
interface Element {
  readonly textContent: string;
  getAttribute(name: string): string | null;
  closest(selector: string): Element | null;
}
interface InPage {
  readonly document: { querySelectorAll(s: string): ArrayLike<Element> };
}

// The API's checks run without Chromium too; the page's need it.
const inChromium = it.skipIf(!hasChromium);

describe("the Backtest page and its API", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-backtest-page-"));
  const rulesFile = join(dir, "rules.yaml");
  let demo: Demo;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cli: BacktestResult;
  const errors: string[] = [];

  const post = (body: unknown, headers: Record<string, string> = { "x-energy2mqtt-request": "1" }) =>
    fetch(new URL("api/backtest", demo.url), {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    if (hasChromium) await buildWebAssets();
    writeFileSync(join(dir, "empty-agile.json"), JSON.stringify({ results: [] }));
    demo = await startDemo(dir, {}, undefined, BENCH_RULES.join("\n"));
    // Two weeks and a day of the fixture (the last day's points close the fortnight's last half-hour).
    writeYearToStore(loadYear(ROOT), 0, 15 * 48, demo.storePath);
    if (!hasChromium) return;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  it("refuses a bad body in the CLI's words, a POST without the page's header, and an unknown run", async () => {
    const bad = await post({ batteryKwh: -3 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("--battery-kwh must be a positive number of kWh");
    const after = await post({ from: "2023-01-05", to: "2023-01-01" });
    expect(((await after.json()) as { error: string }).error).toBe("--from 2023-01-05 is after --to 2023-01-01");
    const unknown = await post({ speed: "fast" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain("speed");
    expect((await post({}, {})).status).toBe(403);
    const missing = await fetch(new URL("api/backtest/00000000-0000-4000-8000-000000000000", demo.url));
    expect(missing.status).toBe(404);
  });

  inChromium(
    "runs a fortnight from the page with progress, refuses a second run meanwhile, and shows the CLI's rows",
    async () => {
      await page.goto(`${demo.url}#backtest`);
      await page.locator('input[name="from"]').fill(FROM);
      await page.locator('input[name="to"]').fill(TO);
      await page.locator('select[name="by"]').selectOption("day");
      await page.getByRole("button", { name: "Run" }).click();
      await page.waitForSelector(".backtest-status:has-text('Running')");
      // One run at a time: the second is told which one runs.
      const second = await post({ from: FROM, to: TO });
      expect(second.status).toBe(409);
      const { id } = (await second.json()) as { id: string };
      const progress = (await (await fetch(new URL(`api/backtest/${id}`, demo.url))).json()) as {
        state: string;
        fraction: number;
        phase: string;
      };
      expect(progress.state).toBe("running");
      expect(progress.fraction).toBeGreaterThanOrEqual(0);
      expect(progress.fraction).toBeLessThan(1);
      expect(progress.phase).not.toBe("");

      // The CLI on the same store and options, while the page's run goes on.
      const { stdout } = await run(
        process.execPath,
        [
          "--import",
          "tsx",
          "test/helpers/cli-entry.ts",
          "backtest",
          "--rules",
          rulesFile,
          "--store",
          demo.storePath,
          "--from",
          FROM,
          "--to",
          TO,
          "--by",
          "day",
          "--policies",
          POLICIES.join(","),
          "--json",
        ],
        { cwd: ROOT, env: { ...process.env, ENERGY2MQTT_CONFIG: "" }, maxBuffer: 16 * 1024 * 1024 },
      );
      cli = backtestResultSchema.parse(JSON.parse(stdout));
      expect(cli.rows).toHaveLength(14 * POLICIES.length);

      await page.waitForSelector("table.backtest-table tbody tr", { timeout: 90_000 });
      const cells: Cell[] = await page.evaluate(() =>
        Array.from((globalThis as unknown as InPage).document.querySelectorAll("table.backtest-table td")).map(
          (cell) => ({
            tariff: cell.closest("table")?.getAttribute("data-tariff") ?? "",
            period: cell.closest("tr")?.getAttribute("data-period") ?? "",
            policy: cell.getAttribute("data-policy") ?? "",
            text: cell.textContent,
            cost: Number(cell.getAttribute("data-cost")),
            saved: Number(cell.getAttribute("data-saved")),
            importKwh: Number(cell.getAttribute("data-import")),
            exportKwh: Number(cell.getAttribute("data-export")),
          }),
        ),
      );
      // Row for row, in the CLI's order: the same figures, written as the CLI's table writes them.
      expect(cells.map(({ tariff, period, policy }) => `${tariff} ${period} ${policy}`)).toEqual(
        cli.rows.map(({ tariff, period, policy }) => `${tariff} ${period} ${policy}`),
      );
      cli.rows.forEach((row, index) => {
        expect(cells[index]).toEqual({
          tariff: row.tariff,
          period: row.period,
          policy: row.policy,
          text: backtestCell(row),
          cost: row.costGbp,
          saved: row.savedVsNoBatteryGbp,
          importKwh: row.importKwh,
          exportKwh: row.exportKwh,
        });
      });
      const heads = await page.locator("table.backtest-table thead th").allTextContents();
      expect(heads).toEqual(["period", "actual", "no battery", "eco only", "rules", "optimiser"]);
      // What each rule did, as the CLI's JSON (and its "Rules replayed" lines) says.
      const rows = await page.locator(".backtest-rules-table tbody tr").all();
      const replayed = await Promise.all(rows.map((row) => row.locator("th, td").allTextContents()));
      expect(cli.rules?.length).toBeGreaterThan(0);
      expect(replayed).toEqual(
        (cli.rules ?? []).map((rule) => [
          rule.tariff,
          rule.name,
          String(rule.changes),
          String(rule.windows),
          rule.notReplayed.length > 0 ? rule.notReplayed.join(", ") : "nothing",
        ]),
      );
      expect(cli.rules?.find((rule) => rule.name === "optimiser")?.changes).toBeGreaterThan(0);
      // The chart: a bar per policy and day, each the table's cost; every figure says its scope.
      expect(await page.locator("svg.backtest-chart rect[data-policy]").count()).toBe(cli.rows.length);
      expect(await page.locator("svg.backtest-chart").getAttribute("aria-label")).toContain("for the house");
      expect(await page.locator("table.backtest-table caption").textContent()).toContain("for the house");
      const assumptions = await page.locator(".backtest-assumptions li").allTextContents();
      expect(assumptions.length).toBeGreaterThanOrEqual(cli.assumptions.length - 2);
      expect(assumptions[0]).toBe(cli.assumptions[0]);
      expect(await page.locator(".backtest-status").textContent()).toMatch(/^Done in \d+\.\d s\.$/);
      // Opened again (another page in between), it shows the last run's table again.
      await page.goto(`${demo.url}#now`);
      await page.goto(`${demo.url}#backtest`);
      await page.waitForSelector("table.backtest-table tbody tr");
      expect(await page.locator("table.backtest-table td").count()).toBe(cli.rows.length);
      expect(await page.locator('input[name="from"]').inputValue()).toBe(FROM);
      expect(await page.locator('select[name="by"]').inputValue()).toBe("day");
      expect(errors).toEqual([]);
    },
    120_000,
  );

  for (const width of [1280, 390])
    for (const scheme of ["light", "dark"] as const)
      inChromium(
        `has no serious or critical axe violation and nothing wider than the screen at ${width} px, ${scheme}`,
        async () => {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme: scheme });
          const found = [
            ...(await axeCheck(page, `backtest ${width} ${scheme}`)).serious,
            ...(await sidewaysOverflow(page, `backtest ${width} ${scheme}`)),
          ];
          if (SHOTS) {
            mkdirSync(SHOTS, { recursive: true });
            await page.screenshot({ path: join(SHOTS, `backtest-${width}-${scheme}.png`), fullPage: true });
          }
          expect(found).toEqual([]);
        },
      );

  it("says why a run the CLI refuses failed, in its words", async () => {
    const started = await post({ from: "2022-01-01", to: "2022-01-02", policies: ["actual"] });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const job = await vi.waitFor(
      async () => {
        const view = (await (await fetch(new URL(`api/backtest/${id}`, demo.url))).json()) as {
          state: string;
          error: string | null;
          result: unknown;
        };
        if (view.state === "running") throw new Error("still running");
        return view;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(job.state).toBe("failed");
    expect(job.result).toBeNull();
    expect(job.error).toContain("has no metered half-hours from 2022-01-01 to 2022-01-02");
  });

  inChromium("shows the API's words for a bad input", async () => {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.locator('input[name="batteryKwh"]').fill("-3");
    await page.getByRole("button", { name: "Run" }).click();
    const alert = page.locator("#main .error[role=alert]");
    await alert.waitFor({ state: "visible" });
    expect(await alert.textContent()).toBe("--battery-kwh must be a positive number of kWh");
    await page.locator('input[name="batteryKwh"]').fill("");
  });
});

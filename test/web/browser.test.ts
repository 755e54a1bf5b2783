import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import { observe } from "../helpers/mqtt-observer.js";
import { CHROMIUM, hasChromium, launchChromium } from "./browser-launch.js";
import { type Demo, fillYear, startDemo, YEAR_DEVICE } from "./demo.js";

/** What the functions run inside the page use of it (the tests compile without the DOM's types). */
interface InPage {
  readonly document: {
    querySelector(
      selector: string,
    ): { readonly textContent: string | null; getAttribute(name: string): string | null } | null;
    readonly documentElement: { readonly scrollWidth: number };
  };
  readonly location: { readonly hash: string };
}

if (!hasChromium)
  console.warn(`[web e2e] skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`);

describe.skipIf(!hasChromium)("the web page in a real browser against the demo daemon", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-webe2e-"));
  let demo: Demo;
  let browser: Browser;
  let page: Page;
  let mqtt: Awaited<ReturnType<typeof observe>>;
  const errors: string[] = [];

  beforeAll(async () => {
    await buildWebAssets();
    fillYear(join(dir, "e2m.db"));
    demo = await startDemo(dir);
    mqtt = await observe(demo.app.mqttUrl, [`${demo.base}/#`]);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("pageerror", (error) => errors.push(error.message));
    // Nothing but the daemon itself: no font, CDN or other host.
    page.on("request", (request) => {
      if (!request.url().startsWith(demo.url)) errors.push(`outside request: ${request.url()}`);
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await mqtt?.close();
    await demo?.stop();
  });

  it("loads against the demo daemon and shows the house's flows and devices live", async () => {
    await page.goto(`${demo.url}#now`);
    await page.waitForSelector("#stream.on");
    await page.waitForFunction(() =>
      (globalThis as unknown as InPage).document
        .querySelector('[data-system="sd2024g001"] li[data-flow="solar"]')
        ?.getAttribute("data-watts"),
    );
    expect(await page.locator("tr[data-device]").count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('tr[data-device="sd2024g001"] [data-available]').textContent()).toBe("online");
    expect(errors).toEqual([]);
  });

  it("changes the live values when the simulator's house changes", async () => {
    const home = '[data-system="sd2024g001"] li[data-flow="home"]';
    const before = await page.locator(home).getAttribute("data-watts");
    await demo.admin("/devices/SD2024G001", { offline: true });
    await page.waitForSelector('tr[data-device="sd2024g001"] [data-available="offline"]', { timeout: 15_000 });
    await demo.admin("/devices/SD2024G001", { offline: false });
    await demo.admin("/clock", { advance_ms: 5 * 3_600_000 });
    await page.waitForSelector('tr[data-device="sd2024g001"] [data-available="online"]', { timeout: 15_000 });
    await page.waitForFunction(
      ([selector, old]) =>
        (globalThis as unknown as InPage).document.querySelector(selector)?.getAttribute("data-watts") !== old,
      [home, before] as const,
      { timeout: 15_000 },
    );
  });

  it("switches a rule from the page: the switch reaches the running rules, the audit log and Home Assistant's MQTT state", async () => {
    await page.goto(`${demo.url}#changes`);
    const toggle = page.locator('input[data-rule="overnight-top-up"]');
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    const since = Date.now();
    await toggle.click();
    await page.waitForFunction(() =>
      (globalThis as unknown as InPage).document.querySelector(".result")?.textContent?.includes("switched off"),
    );
    const state = await mqtt.waitFor((m) => m.payload.includes('"overnight-top-up":{"enabled":false'), 15_000, since);
    expect(state.topic.startsWith(`${demo.base}/`)).toBe(true);
    // The audit log says who switched it, and the Changes page shows it.
    const audit = (await (await fetch(new URL("api/audit", demo.url))).json()) as {
      entries: { source: string; target: string; action: string }[];
    };
    expect(audit.entries[0]).toMatchObject({ source: "web", target: "overnight-top-up", action: "rule:disable" });
    await page.reload();
    await page.waitForSelector("table.audit tbody tr", { timeout: 10_000 });
    expect(await page.locator("table.audit tbody tr").first().textContent()).toContain("rule:disable");
  });

  it("runs a rule now from the page: its change goes through the control gate into the audit log and rule events", async () => {
    await page.locator('input[data-rule="overnight-top-up"]').click();
    await page.waitForFunction(() =>
      (globalThis as unknown as InPage).document.querySelector(".result")?.textContent?.includes("switched on"),
    );
    await page.locator(".rule", { hasText: "battery-by-morning" }).locator('button[data-action="run"]').click();
    // It asks first (what, for how long, on which device); nothing is sent until confirmed.
    await page.locator('dialog.run-preview[open] button[data-confirm="run"]').click();
    // The run's row comes in after the switch's own row, and the page's own "rule:run" row after it.
    await page.waitForSelector('table.audit tbody tr:has-text("rule:run")', { timeout: 20_000 });
    expect(await page.locator("table.audit tbody tr").first().textContent()).toContain("web page");
    const row = await page.locator('table.audit tbody tr:has-text("preset:timed-charge")').first().textContent();
    expect(row).toContain("preset:timed-charge");
    expect(row).toContain("battery-by-morning");
    await page.waitForSelector(".events li", { timeout: 10_000 });
    expect(await page.locator(".events").textContent()).toContain("battery-by-morning");
  });

  it("shows the plan with a SoC line that rises in the charge window and falls with the house's use", async () => {
    await page.goto(`${demo.url}#plan`);
    const line = page.locator("polyline.soc-line");
    await line.waitFor();
    const points = ((await line.getAttribute("points")) ?? "").split(" ").map((pair) => Number(pair.split(",")[1]));
    expect(points.length).toBeGreaterThanOrEqual(2);
    // SVG y grows downwards: a rising SoC is a smaller y later on, a falling one a larger y.
    expect(Math.min(...points)).toBeLessThan(points[0] ?? 0);
    const steps = points.slice(1).map((y, index) => y - (points[index] ?? y));
    expect(Math.max(...steps)).toBeGreaterThan(0);
    expect(await page.textContent("body")).toMatch(/estimated from \d+ days? of local history/);
    expect(await page.locator(".legend li").count()).toBe(5);
    expect(await page.locator("svg.plan .lane-label").allTextContents()).toEqual(
      expect.arrayContaining(["battery-by-morning", "overnight-top-up"]),
    );
  });

  it("renders a year of 5-minute points from the store in the history chart", async () => {
    await page.goto(`${demo.url}#history`);
    await page.locator("#history-device").selectOption(YEAR_DEVICE);
    await page.locator('button[data-range="all"]').click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as InPage).document.querySelector("[data-points]")?.getAttribute("data-points") ===
        "105120",
      undefined,
      {
        timeout: 20_000,
      },
    );
    expect(await page.locator("#power-chart canvas").count()).toBe(1);
    const rendered = Number(await page.locator("[data-points]").getAttribute("data-rendered"));
    expect(rendered).toBeGreaterThan(1000);
    expect(rendered).toBeLessThan(105_120);
    // Zoom: a drag over a stretch of the chart asks for that range's points.
    const over = await page.locator("#power-chart .u-over").boundingBox();
    if (!over) throw new Error("no chart area");
    await page.mouse.move(over.x + over.width * 0.5, over.y + over.height / 2);
    await page.mouse.down();
    await page.mouse.move(over.x + over.width * 0.52, over.y + over.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(
      () =>
        Number((globalThis as unknown as InPage).document.querySelector("[data-points]")?.getAttribute("data-points")) <
        105_120,
      undefined,
      { timeout: 20_000 },
    );
    const zoomed = Number(await page.locator("[data-points]").getAttribute("data-points"));
    // About 2 % of a year: a week of 5-minute points, each drawn.
    expect(zoomed).toBeGreaterThan(1000);
    expect(zoomed).toBeLessThan(5000);
    expect(Number(await page.locator("[data-points]").getAttribute("data-rendered"))).toBe(zoomed);
    expect(errors).toEqual([]);
  });

  it("fits a phone's width and is usable by keyboard", async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`${demo.url}#now`);
    await phone.waitForSelector(".flow-box");
    expect(
      await phone.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390);
    await phone.keyboard.press("Tab");
    await phone.keyboard.press("Tab");
    await phone.keyboard.press("Tab");
    await phone.keyboard.press("Enter");
    await phone.waitForFunction(() => (globalThis as unknown as InPage).location.hash === "#plan");
    await phone.close();
  });
});

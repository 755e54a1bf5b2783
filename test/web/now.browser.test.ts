import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import type { LiveSnapshot, WebHealth } from "../../src/web/api-types.js";
import { observe } from "../helpers/mqtt-observer.js";
import { NIGHT } from "../helpers/simulator.js";
import { axeCheck } from "./axe.js";
import { hasChromium, launchChromium } from "./browser-launch.js";
import { type Demo, startDemo } from "./demo.js";

/** What the functions run inside the page use of it (the tests compile without the DOM's types). */
interface InPage {
  readonly document: {
    querySelector(
      selector: string,
    ): { readonly textContent: string | null; getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): ArrayLike<{
      getBoundingClientRect(): { top: number; bottom: number };
    }>;
    readonly scrollingElement: { readonly scrollWidth: number } | null;
    readonly activeElement: { getAttribute(name: string): string | null } | null;
  };
  getComputedStyle(element: unknown): { outlineStyle: string; outlineWidth: string };
}

/** Screenshots for a person to look at, only when asked for: E2M_SCREENSHOTS=/some/dir. */
const SHOTS = process.env.E2M_SCREENSHOTS;

const INVERTER = '[data-system="sd2024g001"]';
const PLANT = '[data-system="em2024e001"]';

/** The state JSON the daemon last published for a device: the MQTT entities' own signs. */
type DeviceState = Record<string, unknown>;

describe.skipIf(!hasChromium)("the Now and Health pages against the demo house", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-now-"));
  let demo: Demo;
  let browser: Browser;
  let wide: Page;
  let phone: Page;
  let mqtt: Awaited<ReturnType<typeof observe>>;
  const errors: string[] = [];
  /** Every request a page made for the plan: the Now page words its rules without one. */
  const planRequests: string[] = [];
  const watchPlanRequests = (page: Page) =>
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/plan") planRequests.push(request.url());
    });

  const shot = async (page: Page, name: string) => {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}-light.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(SHOTS, `${name}-dark.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
  };

  beforeAll(async () => {
    await buildWebAssets();
    // MIDDAY, the demo's default: the house has sunshine to show.
    demo = await startDemo(dir);
    mqtt = await observe(demo.app.mqttUrl, [`${demo.base}/#`]);
    browser = await launchChromium();
    // A language that writes 24-hour times, and a machine zone far from the house's: the page must use the house's.
    const context = { locale: "en-GB", timezoneId: "Pacific/Chatham" };
    wide = await browser.newPage({ ...context, viewport: { width: 1280, height: 900 } });
    phone = await browser.newPage({ ...context, viewport: { width: 390, height: 844 } });
    for (const page of [wide, phone]) {
      page.on("pageerror", (error) => errors.push(error.message));
      watchPlanRequests(page);
    }
    await Promise.all([wide.goto(`${demo.url}#now`), phone.goto(`${demo.url}#now`)]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await mqtt?.close();
    await demo?.stop();
  });

  /** Waits until every flow of the inverter has a value on the page. */
  const liveOn = async (page: Page) =>
    page.waitForFunction(
      (selector) =>
        (globalThis as unknown as InPage).document
          .querySelector(`${selector} li[data-flow="grid"]`)
          ?.getAttribute("data-watts"),
      INVERTER,
      { timeout: 20_000 },
    );

  it("names each inverter and plant its figures belong to, at both widths", async () => {
    for (const page of [wide, phone]) {
      await liveOn(page);
      expect(await page.locator(`${INVERTER} h3`).textContent()).toBe("Inverter SD2024G001 (GIV-HY5.0)");
      const plant = await page.locator(`${PLANT} h3`).textContent();
      expect(plant).toContain("EMS plant EM2024E001");
      expect(plant).toContain("SE2024G101 GIV-AC3.0");
      expect(plant).toContain("SE2024G102 GIV-HY3.6");
      // The EMS's inverters are its members, not diagrams of their own.
      expect(await page.locator('[data-system="se2024g101"]').count()).toBe(0);
      // Solar, battery, grid and home on both; the car only where a charger is drawn.
      expect(await page.locator(`${INVERTER} svg.flow-diagram [data-flow]`).count()).toBe(5);
      expect(await page.locator(`${INVERTER} li[data-flow="ev"]`).textContent()).toContain("Driveway");
      expect(await page.locator(`${INVERTER} svg.flow-diagram`).getAttribute("aria-label")).toMatch(
        /^Inverter SD2024G001 \(GIV-HY5\.0\): Solar /,
      );
    }
  });

  /**
   * The page's grid and battery figures of a system are ones the daemon published on MQTT, sign
   * and all, and its words and lines point the way that sign says. Returns the grid figure.
   */
  const signsAgree = async (system: string, device: string): Promise<number> => {
    // Read at once: the figures change with every reading.
    const { grid, battery, gridWords, batteryWords, direction, points } = await wide.evaluate((selector) => {
      const { document } = globalThis as unknown as InPage;
      const gridItem = document.querySelector(`${selector} li[data-flow="grid"]`);
      const batteryItem = document.querySelector(`${selector} li[data-flow="battery"]`);
      return {
        grid: Number(gridItem?.getAttribute("data-watts")),
        battery: Number(batteryItem?.getAttribute("data-watts")),
        gridWords: gridItem?.textContent ?? "",
        batteryWords: batteryItem?.textContent ?? "",
        direction: document.querySelector(`${selector} svg [data-flow="grid"]`)?.getAttribute("data-direction"),
        points: document.querySelector(`${selector} svg [data-flow="grid"] polyline`)?.getAttribute("points"),
      };
    }, system);
    const ofDevice = (m: { topic: string }) => m.topic === `${demo.base}/${device}`;
    await mqtt.waitFor((m) => ofDevice(m) && (JSON.parse(m.payload) as DeviceState).grid_power === grid);
    await mqtt.waitFor((m) => ofDevice(m) && (JSON.parse(m.payload) as DeviceState).battery_power === battery);
    // Export positive: exporting is drawn from the inverter or plant (the hub at 180,150) out to the grid.
    if (grid > 10) {
      expect(direction).toBe("out");
      expect(gridWords).toMatch(/^Grid exporting \d/);
      expect(points?.startsWith("180,150 ")).toBe(true);
    } else if (grid < -10) {
      expect(direction).toBe("in");
      expect(gridWords).toMatch(/^Grid importing \d/);
      expect(points?.endsWith(" 180,150")).toBe(true);
    } else expect(gridWords).toBe("Grid idle");
    // No figure carries a sign: the words carry the direction.
    expect(gridWords).not.toContain("-");
    if (battery > 10) expect(batteryWords).toMatch(/^Battery discharging /);
    else if (battery < -10) expect(batteryWords).toMatch(/^Battery charging /);
    return grid;
  };

  it("draws each line the way power goes at midday: the grid's direction is the MQTT entity's sign", async () => {
    await liveOn(wide);
    // Solar at midday: producing, flowing into the inverter.
    const solar = wide.locator(`${INVERTER} svg [data-flow="solar"]`);
    expect(await solar.getAttribute("data-direction")).toBe("in");
    expect(Number(await solar.getAttribute("data-watts"))).toBeGreaterThan(10);
    expect(await wide.locator(`${INVERTER} li[data-flow="solar"]`).textContent()).toMatch(/^Solar producing \d/);
    const inverterGrid = await signsAgree(INVERTER, "sd2024g001");
    const plantGrid = await signsAgree(PLANT, "em2024e001");
    // At midday in November the demo's plant draws from the grid: at least one grid line has a direction to check.
    expect(Math.max(Math.abs(inverterGrid), Math.abs(plantGrid))).toBeGreaterThan(10);
    // Home is always used, from the inverter outwards.
    expect(await wide.locator(`${INVERTER} svg [data-flow="home"]`).getAttribute("data-direction")).toBe("out");
    await shot(wide, "now-1280");
    await shot(phone, "now-390");
  });

  it("animates the lines that carry power, and keeps still for a reader who asks for less motion", async () => {
    const line = `${INVERTER} svg [data-flow="solar"] polyline`;
    const animation = () =>
      wide.evaluate((selector) => {
        const { document, getComputedStyle } = globalThis as unknown as InPage;
        const style = getComputedStyle(document.querySelector(selector)) as unknown as {
          animationName: string;
          animationDuration: string;
        };
        return { name: style.animationName, seconds: Number.parseFloat(style.animationDuration) };
      }, line);
    const moving = await animation();
    expect(moving.name).toBe("flow-run");
    expect(moving.seconds).toBeGreaterThan(0);
    expect(moving.seconds).toBeLessThanOrEqual(4);
    await wide.emulateMedia({ reducedMotion: "reduce" });
    expect((await animation()).name).toBe("none");
    // Still, the arrow says the direction.
    expect(await wide.locator(line).getAttribute("marker-mid")).toMatch(/^url\(#flow-arrow-\d+-[sml]\)$/);
    await wide.emulateMedia({ reducedMotion: "no-preference" });
  });

  it("says the battery's mode and why, the active rule and the next planned action with its time, in the house's zone", async () => {
    await wide.waitForSelector(`${INVERTER} .battery-mode:not([data-mode="unknown"])`, { timeout: 30_000 });
    const mode = await wide.locator(`${INVERTER} .battery-mode`).textContent();
    expect(mode).toMatch(
      /^Battery mode: (eco|timed charge|timed discharge|timed export|paused|no timed slot open|eco off)/,
    );
    expect(mode).toMatch(/ \((your setting|rule [\w-]+)\)$/);
    // The next window the rules engine has, as the API gives it.
    const { rules } = (await (await fetch(new URL("api/rules", demo.url))).json()) as {
      rules: {
        name: string;
        enabled: boolean;
        dryRun: boolean;
        nextWindow?: { start: number; end: number; readable: string[] };
      }[];
    };
    const now = ((await (await fetch(new URL("api/now", demo.url))).json()) as LiveSnapshot).now;
    const upcoming = rules
      .filter((rule) => rule.enabled && rule.nextWindow && rule.nextWindow.start > now)
      .sort((a, b) => (a.nextWindow?.start ?? 0) - (b.nextWindow?.start ?? 0))[0];
    expect(upcoming?.nextWindow).toBeDefined();
    const next = wide.locator('[data-status="next"]');
    await next.waitFor();
    expect(Number(await next.getAttribute("data-at"))).toBe(upcoming?.nextWindow?.start);
    const expected = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/London",
      hour: "2-digit",
      minute: "2-digit",
    }).format(upcoming?.nextWindow?.start);
    const text = (await next.textContent()) ?? "";
    expect(text).toContain(`${expected} ${upcoming?.name}`);
    // Its actions in the running rules' words, the Plan page's, with no plan asked for.
    expect(upcoming?.nextWindow?.readable.length).toBeGreaterThan(0);
    // After the time (and its weekday when not today), the rule and its actions, word for word.
    expect(text.startsWith("Next planned action: ")).toBe(true);
    expect(
      text.endsWith(
        `${expected} ${upcoming?.name}: ${upcoming?.nextWindow?.readable.join(", ")}${upcoming?.dryRun ? " (dry run: logged, not sent)" : ""}`,
      ),
    ).toBe(true);
    expect(planRequests).toEqual([]);
    // 24-hour, as en-GB writes it, whatever the machine's zone.
    expect(text).not.toMatch(/\b(am|pm)\b/i);
    expect(await wide.locator('[data-status="active"]').textContent()).toMatch(/^Active rule: /);
    expect(await wide.locator(".zone").textContent()).toBe("Times in Europe/London (GMT).");
  });

  it("shows each device's path", async () => {
    const snapshot = (await (await fetch(new URL("api/now", demo.url))).json()) as LiveSnapshot;
    for (const device of snapshot.devices) {
      const cell = wide.locator(`tr[data-device="${device.id}"] td[data-path]`);
      expect(await cell.getAttribute("data-path")).toBe(device.path);
      expect(await cell.textContent()).toBe(device.path === "local" ? "LAN" : "cloud");
    }
    expect(await wide.locator(`${INVERTER} .system-path`).textContent()).toMatch(/^Read over the cloud/);
  });

  it("Health says the budget, the subscription, each path and today's writes in plain words", async () => {
    await wide.goto(`${demo.url}#health`);
    const budget = wide.locator('[data-health="budget"]');
    await budget.waitFor();
    const health = (await (await fetch(new URL("api/health", demo.url))).json()) as WebHealth;
    const match = /^(\d+) of (\d+) requests used this minute \((\d+) left\)$/.exec((await budget.textContent()) ?? "");
    expect(match).not.toBeNull();
    expect(Number(match?.[2])).toBe(health.budget?.limit);
    expect(Number(match?.[1]) + Number(match?.[3])).toBe(health.budget?.limit);
    expect(await wide.locator('[data-health="subscription"]').textContent()).toMatch(/^active/);
    const paths = await wide.locator('[data-health="paths"] li').allTextContents();
    expect(paths).toContain("Inverter SD2024G001: the cloud");
    expect(paths.length).toBeGreaterThanOrEqual(5);
    const writes = (await wide.locator('[data-health="writes"]').textContent()) ?? "";
    if (health.writes) expect(writes).toContain(String(health.writes.budget));
    else expect(writes).toBe("no daily write budget is set");
    await shot(wide, "health-1280");
    expect(errors).toEqual([]);
  });

  it("fits 390 px: the whole menu in sight on one row, no sideways scroll, every link reached by Tab with a visible focus", async () => {
    const header = await phone.locator("header").boundingBox();
    expect(header?.height).toBeLessThan(100);
    const links = await phone.evaluate(() =>
      Array.from((globalThis as unknown as InPage).document.querySelectorAll("nav a")).map((link) => {
        const box = link.getBoundingClientRect() as unknown as { top: number; left: number; right: number };
        return { top: box.top, left: box.left, right: box.right };
      }),
    );
    expect(links).toHaveLength(6);
    expect(new Set(links.map((link) => link.top)).size).toBe(1);
    // Changes and Health too: every link lies wholly inside the screen, none behind a sideways scroll.
    for (const link of links) {
      expect(link.left).toBeGreaterThanOrEqual(0);
      expect(link.right).toBeLessThanOrEqual(390);
    }
    const nav = await phone.evaluate(() => {
      const element = (globalThis as unknown as InPage).document.querySelector("nav") as unknown as {
        scrollWidth: number;
        clientWidth: number;
      };
      return { scrollWidth: element.scrollWidth, clientWidth: element.clientWidth };
    });
    expect(nav.scrollWidth).toBeLessThanOrEqual(nav.clientWidth);
    expect(
      await phone.evaluate(() => (globalThis as unknown as InPage).document.scrollingElement?.scrollWidth),
    ).toBeLessThanOrEqual(390);
    await phone.keyboard.press("Tab"); // the skip link
    for (const page of ["now", "plan", "history", "backtest", "changes", "health"]) {
      await phone.keyboard.press("Tab");
      const focus = await phone.evaluate(() => {
        const active = (globalThis as unknown as InPage).document.activeElement;
        const style = (globalThis as unknown as InPage).getComputedStyle(active);
        return { href: active?.getAttribute("href"), outline: style.outlineStyle, width: style.outlineWidth };
      });
      expect(focus).toEqual({ href: `#${page}`, outline: "solid", width: "3px" });
    }
    await phone.keyboard.press("Enter");
    await phone.waitForSelector('[data-health="budget"]');
    expect(
      await phone.evaluate(() => (globalThis as unknown as InPage).document.scrollingElement?.scrollWidth),
    ).toBeLessThanOrEqual(390);
    await shot(phone, "health-390");
  });

  it("at night the solar line is idle and the home draws from the battery or the grid", async () => {
    // The house's clock alone goes to 02:00 (the next night): the cloud reports the dark.
    const { now } = (await (await fetch(new URL("api/now", demo.url))).json()) as LiveSnapshot;
    const dayMs = 86_400_000;
    const nextNight = NIGHT + Math.ceil((now - NIGHT) / dayMs) * dayMs;
    await demo.admin("/clock", { advance_ms: nextNight - now });
    await phone.goto(`${demo.url}#now`);
    await phone.waitForFunction(
      (selector) =>
        (globalThis as unknown as InPage).document
          .querySelector(`${selector} svg [data-flow="solar"]`)
          ?.getAttribute("data-direction") === "idle",
      INVERTER,
      { timeout: 20_000 },
    );
    expect(await phone.locator(`${INVERTER} li[data-flow="solar"]`).textContent()).toBe("Solar idle");
    const battery = await phone.locator(`${INVERTER} svg [data-flow="battery"]`).getAttribute("data-direction");
    const grid = await phone.locator(`${INVERTER} svg [data-flow="grid"]`).getAttribute("data-direction");
    // Nothing to export in the dark: the home's power comes in from the battery or the grid.
    expect(grid).not.toBe("out");
    expect([battery, grid]).toContain("in");
    expect(
      await phone.evaluate(() => (globalThis as unknown as InPage).document.scrollingElement?.scrollWidth),
    ).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
  });

  it("has no serious or critical accessibility violation on Now and Health at either width (axe-core)", async () => {
    for (const page of [wide, phone])
      for (const [hash, ready] of [
        ["now", `${INVERTER} .battery-mode`],
        ["health", '[data-health="budget"]'],
      ] as const) {
        await page.goto(`${demo.url}#${hash}`);
        await page.waitForSelector(ready);
        const { serious } = await axeCheck(page, hash);
        expect(serious, `${hash} at ${page.viewportSize()?.width} px`).toEqual([]);
      }
  });

  it("Health says the subscription is refused, with the status and the likelier cause, when the cloud answers 401", async () => {
    await demo.admin("/subscription", { active: false });
    try {
      const refused = await vi.waitFor(
        async () => {
          const health = (await (await fetch(new URL("api/health", demo.url))).json()) as WebHealth;
          if (!health.refused) throw new Error("the daemon has not been refused yet");
          return health.refused;
        },
        { timeout: 30_000, interval: 250 },
      );
      await wide.goto(`${demo.url}#health`);
      const line = wide.locator('[data-health="subscription"]');
      await wide.waitForFunction(
        () =>
          (globalThis as unknown as InPage).document
            .querySelector('[data-health="subscription"]')
            ?.textContent?.startsWith("refused") ?? false,
        undefined,
        { timeout: 20_000 },
      );
      const text = (await line.textContent()) ?? "";
      expect(text).toMatch(/^refused \(HTTP 401, the (subscription|token) is likelier\): /);
      expect(text).toContain(`HTTP ${refused.status}`);
      expect(text).toContain(refused.message);
      expect(errors).toEqual([]);
    } finally {
      await demo.admin("/subscription", { active: true });
    }
  });

  it("in an open rule window, says the rule is active and that it set the battery's timed charge", async () => {
    // 02:40: both demo rules' windows are open at the start; overnight-top-up (priority 10) wins timed-charge.
    const night = await startDemo(mkdtempSync(join(tmpdir(), "e2m-now-night-")), {}, NIGHT + 40 * 60_000);
    const page = await browser.newPage({
      locale: "en-GB",
      timezoneId: "Pacific/Chatham",
      viewport: { width: 390, height: 844 },
    });
    try {
      page.on("pageerror", (error) => errors.push(error.message));
      watchPlanRequests(page);
      await page.goto(`${night.url}#now`);
      const mode = page.locator(`${INVERTER} .battery-mode[data-mode="timed-charge"]`);
      await mode.waitFor({ timeout: 30_000 });
      expect(await mode.textContent()).toMatch(
        /^Battery mode: timed charge until 05:40 \(limit 100%\) \(rule overnight-top-up\)$/,
      );
      const active = page.locator('[data-status="active"]', { hasText: "overnight-top-up" });
      await active.waitFor();
      expect(await active.textContent()).toMatch(/^Active rule: overnight-top-up until 05:40/);
      // The actions in words, from the running rules (api/rules' nextWindow), not from a plan.
      await page.waitForSelector('[data-status="active"]:has-text("timed charge to 100%")', { timeout: 15_000 });
      expect(await active.textContent()).toMatch(
        /^Active rule: overnight-top-up until 05:40: Timed charge to 100% 02:40–05:40 on inverter SD2024G001$/,
      );
      expect(planRequests).toEqual([]);
      await shot(page, "now-390-rule-active");
    } finally {
      await page.close();
      await night.stop();
    }
    expect(errors).toEqual([]);
  }, 60_000);
});

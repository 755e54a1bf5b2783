import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import { runRulesPlanCommand } from "../../src/commands/rules-plan.js";
import type { PlanHelp, PlanView } from "../../src/web/plan-view.js";
import { capture } from "../helpers/capture.js";
import { axeCheck } from "./axe.js";
import { CHROMIUM, hasChromium, launchChromium } from "./browser-launch.js";
import { PLAN_RULES, type PlanDaemon, startPlanDaemon } from "./plan-daemon.js";

/** What the functions run inside the page use of it (the tests compile without the DOM's types). */
interface Box {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  scrollLeft: number;
  getBoundingClientRect(): { readonly left: number; readonly width: number };
}
interface InPage {
  readonly document: {
    querySelector(selector: string): Box | null;
    querySelectorAll(selector: string): ArrayLike<{ getBoundingClientRect(): { readonly height: number } }>;
    readonly documentElement: { readonly scrollWidth: number };
  };
  getComputedStyle(element: unknown): {
    readonly fontSize: string;
    readonly position: string;
    readonly backgroundColor: string;
  };
}
interface SvgText {
  readonly ownerSVGElement: { getScreenCTM(): { readonly a: number } | null };
}

if (!hasChromium)
  console.warn(`[plan e2e] skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`);

async function planOf(url: string): Promise<{ plan: PlanView | null; reason?: string; help?: PlanHelp }> {
  return (await (await fetch(new URL("api/plan", url))).json()) as {
    plan: PlanView | null;
    reason?: string;
    help?: PlanHelp;
  };
}

/**
 * The plan once the daemon has read the battery and its store has settled (the start's backfill
 * written): two answers in a row with the same optimiser total, which the clock alone does not move.
 */
async function livePlan(url: string): Promise<PlanView> {
  const total = (plan: PlanView) => plan.rules.find((rule) => rule.name === "optimiser")?.explained.at(-1)?.runningCost;
  let previous: PlanView | undefined;
  return vi.waitFor(
    async () => {
      const { plan } = await planOf(url);
      const settled =
        plan?.battery.live && previous && total(previous) === total(plan) && previous.notes[0] === plan.notes[0];
      previous = plan?.battery.live ? plan : undefined;
      if (!settled || !plan) throw new Error("the daemon never read the battery's SoC, or its plan kept changing");
      return plan;
    },
    { timeout: 30_000, interval: 300 },
  );
}

async function rulesPlan(options: Parameters<typeof runRulesPlanCommand>[0]) {
  const out = capture();
  const err = capture();
  const code = await runRulesPlanCommand(options, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

const GB_MONEY = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2 });
/** Money as the page writes it in en-GB: to the penny, never "-£0.00". */
const money = (value: number) => GB_MONEY.format(Math.round(value * 100) / 100 || 0);

describe("the Plan page and rules plan against a running daemon", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-plan-"));
  let daemon: PlanDaemon;
  let plan: PlanView;
  let browser: Browser | undefined;
  /** The Plan page at each width, and the errors it threw. */
  const pages = new Map<number, { page: Page; errors: string[] }>();

  beforeAll(async () => {
    vi.stubEnv("ENERGY2MQTT_CONFIG", "");
    if (hasChromium) await buildWebAssets();
    daemon = await startPlanDaemon(dir, PLAN_RULES);
    plan = await livePlan(daemon.url);
    if (!hasChromium) return;
    browser = await launchChromium();
    for (const width of [1280, 390]) {
      // A zone and language of the browser's own: the page's times follow the daemon's zone in the browser's language.
      const page = await browser.newPage({
        viewport: { width, height: 900 },
        locale: "en-GB",
        timezoneId: "Pacific/Chatham",
      });
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${daemon.url}#plan`);
      await page.waitForSelector("table.plan-slots tbody tr");
      pages.set(width, { page, errors });
    }
  }, 120_000);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await browser?.close();
    await daemon?.stop();
  });

  it("serves the optimiser's half-hours, actions in words and who wins the conflict", () => {
    const optimiser = plan.rules.find((rule) => rule.name === "optimiser");
    expect(optimiser?.explained.length).toBeGreaterThanOrEqual(plan.hours * 2);
    expect(optimiser?.noBatteryCost).not.toBeNull();
    const topUp = plan.rules.find((rule) => rule.name === "overnight-top-up");
    const readable = topUp?.windows[0]?.readable[0] ?? "";
    expect(readable).toMatch(/^Timed charge to 100% \d\d:\d\d–\d\d:\d\d on inverter \S+$/);
    expect(plan.contests.length).toBeGreaterThan(0);
    expect(plan.contests[0]).toMatchObject({
      winner: "overnight-top-up",
      loser: "optimiser",
      because: "priority 10 over 0",
    });
  });

  it("rules plan starts from the daemon's live SoC and gives the page's totals", async () => {
    const options = {
      config: daemon.configFile,
      now: new Date(plan.from).toISOString(),
      hours: String(plan.hours),
    };
    const text = await rulesPlan(options);
    expect(text.err).toBe("");
    expect(text.code).toBe(0);
    const soc = `${Number(plan.battery.socPercent.toFixed(1))}%`;
    expect(text.out).toContain(`Using the live SoC ${soc} from the running daemon at ${daemon.url}`);
    expect(text.out).toContain(`Expected over these hours: ${plan.expectedCost.toFixed(2)} GBP for import less export`);
    const json = await rulesPlan({ ...options, json: true });
    const answer = JSON.parse(json.out) as {
      rules: { name: string; slots: { action: string; runningCost: number }[] }[];
      battery: { socPercent: number; socSource: string };
    };
    expect(answer.battery).toMatchObject({
      socPercent: plan.battery.socPercent,
      socSource: "live, from the running daemon",
    });
    const rows = answer.rules[0]?.slots;
    const served = plan.rules.find((rule) => rule.name === "optimiser")?.explained ?? [];
    expect(rows?.length).toBe(served.length);
    expect(rows?.[0]?.action).toBe(served[0]?.action);
    expect(rows?.at(-1)?.runningCost).toBeCloseTo(served.at(-1)?.runningCost ?? Number.NaN, 9);
  });

  it("rules plan leaves a daemon of another configuration alone and says why", async () => {
    const { writeFileSync } = await import("node:fs");
    const config = join(dir, "other.yaml");
    const port = new URL(daemon.url).port;
    writeFileSync(config, `rules: rules.yaml\nstore: { path: ${join(dir, "other.db")} }\nweb: { port: ${port} }\n`);
    const result = await rulesPlan({ config, now: new Date(plan.from).toISOString(), hours: "12" });
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      `The daemon at ${daemon.url} keeps its store at ${join(dir, "e2m.db")}, not this configuration's`,
    );
    expect(result.out).toContain("assuming a SoC of 50% (the default); pass --soc PERCENT");
  });

  it("rules plan takes nothing from a page that refuses it (a token, ingress) and sends the configured token", async () => {
    const { writeFileSync } = await import("node:fs");
    const { startHttpServer } = await import("../helpers/http-server.js");
    const refusing = await startHttpServer(() => ({ status: 401, body: { error: "this page needs web.token" } }));
    try {
      const config = join(dir, "refused.yaml");
      const port = new URL(refusing.url).port;
      writeFileSync(
        config,
        `rules: rules.yaml\nstore: { path: ${join(dir, "refused.db")} }\nweb: { port: ${port}, token: "0123456789abcdef0123" }\n`,
      );
      const result = await rulesPlan({ config, now: new Date(plan.from).toISOString(), hours: "12" });
      expect(result.code).toBe(0);
      expect(result.out).toContain(`The page at http://127.0.0.1:${port}/ gave no battery (HTTP 401 from api/health)`);
      expect(result.out).toContain("assuming a SoC of 50% (the default)");
      expect(refusing.requests[0]?.headers.authorization).toBe("Bearer 0123456789abcdef0123");
    } finally {
      await refusing.close();
    }
  });

  it("rules plan with no daemon on the configured port says what it assumes and how to pass --soc", async () => {
    const { writeFileSync } = await import("node:fs");
    const { freePort } = await import("./demo.js");
    const config = join(dir, "alone.yaml");
    writeFileSync(
      config,
      `rules: rules.yaml\nstore: { path: ${join(dir, "alone.db")} }\nweb: { port: ${await freePort()} }\n`,
    );
    const result = await rulesPlan({ config, now: new Date(plan.from).toISOString(), hours: "12" });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /No daemon answered at http:\/\/127\.0\.0\.1:\d+\/ \(ECONNREFUSED\): assuming a SoC of 50% \(the default\); pass --soc PERCENT/,
    );
  });

  it.skipIf(!hasChromium)(
    "writes times in the browser's language: 12-hour for en-US, on the daemon's zone",
    async () => {
      if (!browser) throw new Error("no browser");
      const page = await browser.newPage({ locale: "en-US", timezoneId: "Pacific/Chatham" });
      await page.goto(`${daemon.url}#plan`);
      const first = page.locator("table.plan-slots tbody tr th").first();
      await first.waitFor();
      const start = plan.rules.find((rule) => rule.name === "optimiser")?.explained[0]?.start ?? Number.NaN;
      const us = new Intl.DateTimeFormat("en-US", { timeZone: plan.timeZone, hour: "2-digit", minute: "2-digit" });
      expect(await first.textContent()).toContain(us.format(start));
      expect(await first.textContent()).toMatch(/AM|PM/);
      await page.close();
    },
  );

  describe.skipIf(!hasChromium).each([1280, 390])("at %i px", (width) => {
    const shown = () => {
      const found = pages.get(width);
      if (!found) throw new Error(`no page at ${width} px`);
      return found;
    };

    it("shows a row per explained half-hour, as the API gives them", async () => {
      const { page, errors } = shown();
      const served = plan.rules.find((rule) => rule.name === "optimiser")?.explained ?? [];
      const rows = page.locator("table.plan-slots tbody tr");
      expect(await rows.count()).toBe(served.length);
      const first = served[0];
      const last = served.at(-1);
      if (!first || !last) throw new Error("no explained half-hours");
      expect(await rows.first().getAttribute("data-action")).toBe(first.action);
      const clock = new Intl.DateTimeFormat("en-GB", { timeZone: plan.timeZone, hour: "2-digit", minute: "2-digit" });
      expect(await rows.first().locator("th").textContent()).toContain(clock.format(first.start));
      expect(await rows.last().locator("td.running").textContent()).toBe(money(last.runningCost));
      expect(await page.locator("figcaption").textContent()).toContain(`Times in ${plan.timeZone}`);
      expect(await page.locator(".plan-savings").textContent()).toContain(money(last.runningCost));
      expect(errors).toEqual([]);
    });

    it("heads the page with rules plan's total and rows over the rule's horizon, with what the total covers", async () => {
      const { page } = shown();
      const headline = page.locator(".plan-total");
      const from = Number(await headline.getAttribute("data-from"));
      // rules plan as a user runs it, no --hours: the page plans as far ahead as it does.
      const options = { config: daemon.configFile, now: new Date(from).toISOString() };
      const text = await rulesPlan(options);
      expect(text.code).toBe(0);
      const total = /Expected over these hours: (-?\d+\.\d\d) GBP/.exec(text.out)?.[1];
      expect(total).toBeDefined();
      expect(await headline.locator("strong").textContent()).toBe(money(Number(total)));
      expect(await headline.textContent()).toContain(
        `over the next ${await headline.getAttribute("data-hours")} hours`,
      );
      expect(await page.locator(".plan-covers").textContent()).toContain("every rule that is on");
      // One headline: the optimiser's own figure says it is not that total, and why.
      expect(await page.locator(".plan-savings").textContent()).toContain("differs from the total above");
      const json = JSON.parse((await rulesPlan({ ...options, json: true })).out) as {
        rules: { name: string; slots: unknown[] }[];
      };
      const cliRows = json.rules.find((rule) => rule.name === "optimiser")?.slots.length;
      expect(await page.locator("table.plan-slots tbody tr").count()).toBe(cliRows);
      // The last rows have prices: the zones tariff is known as far ahead as the plan looks.
      expect(await page.locator("table.plan-slots tbody tr").last().textContent()).not.toContain("not known");
    });

    it("colours only the overlaps that conflict, and no two meanings alike", async () => {
      const { page } = shown();
      const clashing = plan.conflicts.filter((conflict) =>
        plan.contests.some(
          (contest) =>
            conflict.rules.includes(contest.winner) &&
            conflict.rules.includes(contest.loser) &&
            contest.start < conflict.end &&
            contest.end >= conflict.start,
        ),
      );
      expect(clashing.length).toBeGreaterThan(0);
      expect(await page.locator("svg.plan rect.conflict").count()).toBe(clashing.length);
      expect(await page.locator("svg.plan rect.overlap").count()).toBe(plan.conflicts.length - clashing.length);
      const swatches = await page
        .locator(".legend .swatch")
        .evaluateAll((nodes) =>
          nodes.map((node) => (globalThis as unknown as InPage).getComputedStyle(node).backgroundColor),
        );
      expect(swatches.length).toBeGreaterThan(4);
      expect(new Set(swatches).size).toBe(swatches.length);
    });

    it("has no serious or critical accessibility violation (axe-core)", async () => {
      const { page } = shown();
      const { serious: violations, passed } = await axeCheck(page, "plan", "#main");
      // axe ran its checks on the page (the table, the regions, the chart) and found nothing serious.
      expect(passed).toBeGreaterThan(10);
      expect(violations).toEqual([]);
    });

    it("writes actions and conflicts in words, never as JSON", async () => {
      const { page } = shown();
      const actions = await page.locator("table.plan-windows td.actions").allTextContents();
      expect(actions.length).toBeGreaterThan(0);
      for (const text of actions) expect(text).not.toContain("{");
      expect(actions.join("\n")).toMatch(/Timed charge to 100% \d\d:\d\d–\d\d:\d\d on inverter/);
      const conflict = await page.locator(".conflicts li").first().textContent();
      expect(conflict).toContain("overnight-top-up wins (priority 10 over 0)");
      expect(conflict).toContain("not sent");
    });

    it(
      width === 390 ? "scrolls the chart and the table sideways at a readable size" : "keeps the chart's text readable",
      async () => {
        const { page } = shown();
        const sizes = await page.evaluate(() => {
          const doc = (globalThis as unknown as InPage).document;
          const view = globalThis as unknown as InPage;
          const texts = Array.from(
            (doc as unknown as { querySelectorAll(s: string): ArrayLike<SvgText> }).querySelectorAll("svg.plan text"),
          );
          return texts.map(
            (text) =>
              Number.parseFloat(view.getComputedStyle(text).fontSize) * (text.ownerSVGElement.getScreenCTM()?.a ?? 0),
          );
        });
        expect(sizes.length).toBeGreaterThan(10);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
        const chart = page.locator(".plan-chart .plan-scroll");
        expect(await chart.getAttribute("role")).toBe("region");
        expect(await chart.getAttribute("tabindex")).toBe("0");
        expect(await chart.getAttribute("aria-label")).toMatch(/scrolls sideways/);
        if (width !== 390) return;
        const overflow = await page.evaluate(() => {
          const doc = (globalThis as unknown as InPage).document;
          const box = doc.querySelector(".plan-chart .plan-scroll");
          return {
            scroll: box?.scrollWidth ?? 0,
            client: box?.clientWidth ?? 0,
            page: doc.documentElement.scrollWidth,
          };
        });
        expect(overflow.scroll).toBeGreaterThan(overflow.client);
        expect(overflow.page).toBeLessThanOrEqual(390);
        expect(await page.locator(".plan-chart .scroll-cue").isVisible()).toBe(true);
        // The table scrolls in its own box; its time column stays put at the box's left edge.
        const sticky = await page.evaluate(() => {
          const doc = (globalThis as unknown as InPage).document;
          const box = doc.querySelector(".table-scroll:has(table.plan-slots)");
          const cell = doc.querySelector("table.plan-slots tbody th");
          if (!box || !cell) return null;
          const before = cell.getBoundingClientRect().left;
          box.scrollLeft = 300;
          return {
            scrolls: box.scrollWidth > box.clientWidth,
            moved: box.scrollLeft,
            before,
            after: cell.getBoundingClientRect().left,
            edge: box.getBoundingClientRect().left,
          };
        });
        expect(sticky?.scrolls).toBe(true);
        expect(sticky?.moved).toBeGreaterThan(0);
        expect(sticky?.after).toBeCloseTo(sticky?.edge ?? Number.NaN, -1);
        // The keyboard reaches the chart's box.
        await chart.focus();
        await page.keyboard.press("ArrowRight");
        // Scrolling by key may be smooth: wait for it to move.
        await page.waitForFunction(
          () =>
            ((globalThis as unknown as InPage).document.querySelector(".plan-chart .plan-scroll")?.scrollLeft ?? 0) > 0,
        );
      },
    );
  });
});

describe.skipIf(!hasChromium)("the Plan page with no rules", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-plan-empty-"));
  let daemon: PlanDaemon;
  let browser: Browser;

  beforeAll(async () => {
    await buildWebAssets();
    daemon = await startPlanDaemon(dir, undefined);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  for (const width of [1280, 390])
    it(`says at ${width} px how to add rules: where the file goes, the example, the cookbook`, async () => {
      const { plan, help } = await planOf(daemon.url);
      expect(plan).toBeNull();
      expect(help?.rulesFile).toBe(join(dir, "rules.yaml"));
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${daemon.url}#plan`);
      const empty = page.locator(".plan-empty");
      await empty.waitFor();
      const text = (await empty.textContent()) ?? "";
      expect(text).toContain("How to add rules");
      expect(text).toContain("config/rules.example.yaml");
      expect(text).toContain(join(dir, "rules.yaml"));
      expect(text).toContain(daemon.configFile);
      expect(text).toContain("rules: rules.yaml");
      expect(await empty.locator("a").getAttribute("href")).toBe(help?.docs);
      expect(
        await page.evaluate(() => (globalThis as unknown as InPage).document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(width);
      await page.close();
    });
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import type { LiveSnapshot } from "../../src/web/api-types.js";
import { observe } from "../helpers/mqtt-observer.js";
import { hasChromium, launchChromium } from "./browser-launch.js";
import { DEMO_BATTERY_AND_TARIFF, type Demo, startDemo } from "./demo.js";

/** What the functions run inside the page use of it (the tests compile without the DOM's types). */
interface InPage {
  readonly document: {
    querySelectorAll(selector: string): ArrayLike<{
      getAttribute(name: string): string | null;
      readonly textContent: string | null;
    }>;
  };
}

const FLOWS = ["solar", "battery", "grid", "home", "ev"] as const;
type FlowName = (typeof FLOWS)[number];
/** Each diagram's figures as the page shows them, by data-system ("house", "sd2024g001", ...); null: no data. */
type Figures = Record<string, Partial<Record<FlowName, number | null>>>;

const PLANT = '[data-system="em2024e001"]';

/** The demo's tariff and an optimiser (dry run) that plans the car: 20 kWh by 07:30. */
const RULES = [
  ...DEMO_BATTERY_AND_TARIFF,
  "rules:",
  "  - name: optimiser",
  "    dry_run: true",
  '    when: { optimise: { reserve_soc: 10, car: { by: "07:30", kwh: 20 } } }',
].join("\n");

/** evcc's words for GivEnergy's charger modes: solar only, solar with a minimum, full power. */
const EVCC: Readonly<Record<string, string>> = { SuperEco: "PV", Eco: "Min+PV", Boost: "Fast" };

/** The demo tariff's import price at an instant, in pence (zones in the house's zone, Europe/London; last match wins). */
function importPence(at: number): number {
  const [hour, minute] = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/London",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  })
    .format(at)
    .split(":")
    .map(Number);
  const minutes = (hour ?? 0) * 60 + (minute ?? 0);
  if (minutes >= 16 * 60 && minutes < 19 * 60) return 35;
  if (minutes >= 30 && minutes < 5 * 60 + 30) return 8.5;
  return 27;
}

/** Every diagram's figures on the page, read at one instant (one snapshot drew them all). */
const figuresOn = (page: Page): Promise<Figures> =>
  page.evaluate(() => {
    const figures: Record<string, Record<string, number | null>> = {};
    const items = (globalThis as unknown as InPage).document.querySelectorAll("[data-system] li[data-flow]");
    for (const item of Array.from(items)) {
      const system = (item as unknown as { closest(s: string): { getAttribute(n: string): string } }).closest(
        "[data-system]",
      );
      const id = system.getAttribute("data-system");
      const watts = item.getAttribute("data-watts");
      figures[id] = { ...figures[id], [item.getAttribute("data-flow") ?? ""]: watts ? Number(watts) : null };
    }
    return figures;
  });

/** The sum of the known figures of one flow; null when none is known. */
const sumOf = (values: readonly (number | null | undefined)[]): number | null => {
  const known = values.filter((value): value is number => typeof value === "number");
  return known.length ? known.reduce((a, b) => a + b, 0) : null;
};

describe.skipIf(!hasChromium)("the Now page's house, plant SoC, prices and car against the demo house", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-now-house-"));
  let demo: Demo;
  let browser: Browser;
  /** 1280 and 390 px, light and dark: one browser, four pages. */
  const pages: { readonly name: string; readonly page: Page }[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    await buildWebAssets();
    demo = await startDemo(dir, {}, undefined, RULES);
    browser = await launchChromium();
    for (const width of [1280, 390])
      for (const scheme of ["light", "dark"] as const) {
        const page = await browser.newPage({
          locale: "en-GB",
          timezoneId: "Pacific/Chatham",
          viewport: { width, height: 900 },
          colorScheme: scheme,
        });
        page.on("pageerror", (error) => errors.push(error.message));
        pages.push({ name: `${width} px ${scheme}`, page });
      }
    await Promise.all(pages.map(({ page }) => page.goto(`${demo.url}#now`)));
    // Every system has its first reading on every page.
    for (const { page } of pages)
      await page.waitForSelector('[data-system="house"] .house-scope:text-matches("^Every inverter and plant")', {
        timeout: 30_000,
      });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  it("draws the whole house first, each figure the sum of the systems' on the page, at both widths and themes", async () => {
    for (const { name, page } of pages) {
      const first = await page.locator("#main section[data-system]").first().getAttribute("data-system");
      expect(first, name).toBe("house");
      const figures = await figuresOn(page);
      const systems = Object.keys(figures).filter((id) => id !== "house");
      expect(systems.sort(), name).toEqual(["em2024e001", "sd2024g001"]);
      for (const flow of FLOWS)
        expect(figures.house?.[flow] ?? null, `${name}: ${flow}`).toBe(sumOf(systems.map((id) => figures[id]?.[flow])));
      // The house lists every battery of every system, in the systems' order.
      const socs = await page
        .locator(".battery-levels")
        .evaluateAll((levels) =>
          levels.map((level) => (level as unknown as { getAttribute(n: string): string }).getAttribute("data-socs")),
        );
      expect(socs.length, name).toBe(3);
      expect(socs[0], name).toBe(socs.slice(1).join(" "));
      expect(socs[0]?.split(" "), name).toHaveLength(3);
    }
  });

  it("the house's figures are the sums of the systems' the API gives for the same reading", async () => {
    const page = pages[0]?.page as Page;
    // The page and a fetch see the same reading when the systems' figures agree; the house's are then compared.
    const { shown, api } = await vi.waitFor(
      async () => {
        const shown = await figuresOn(page);
        const api = (await (await fetch(new URL("api/now", demo.url))).json()) as LiveSnapshot;
        for (const system of api.systems)
          for (const flow of ["solar", "battery", "grid", "home"] as const)
            if ((shown[system.id]?.[flow] ?? null) !== system[flow]) throw new Error("not the same reading yet");
        return { shown, api };
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(api.systems.length).toBe(2);
    for (const flow of ["solar", "battery", "grid", "home"] as const) {
      const total = sumOf(api.systems.map((system) => system[flow]));
      expect(total, flow).not.toBeNull();
      expect(shown.house?.[flow], flow).toBe(total);
      expect(api.house[flow], flow).toBe(total);
    }
    // Both systems' readings are in it.
    expect(await page.locator('[data-system="house"] .house-scope').textContent()).toBe(
      "Every inverter and plant added up (2 systems).",
    );
  });

  it("shows the EMS plant's batteries' SoC as the plant publishes them on MQTT", async () => {
    const mqtt = await observe(demo.app.mqttUrl, [`${demo.base}/em2024e001`]);
    try {
      const page = pages[1]?.page as Page;
      const levels = page.locator(`${PLANT} .battery-levels`);
      const { socs, text } = await vi.waitFor(
        async () => {
          const socs = (await levels.getAttribute("data-socs")) ?? "";
          if (!socs) throw new Error("no SoC yet");
          return { socs: socs.split(" ").map(Number), text: (await levels.textContent()) ?? "" };
        },
        { timeout: 20_000 },
      );
      expect(socs).toHaveLength(2);
      await mqtt.waitFor((message) => {
        const state = JSON.parse(message.payload) as Record<string, unknown>;
        return state.inverter_1_soc === socs[0] && state.inverter_2_soc === socs[1];
      });
      expect(text).toBe(
        `Battery levels: ${Math.round(socs[0] ?? 0)}% (SE2024G101), ${Math.round(socs[1] ?? 0)}% (SE2024G102)`,
      );
      // The plant's diagram says the batteries' mean beside its battery.
      const mean = Math.round(((socs[0] ?? 0) + (socs[1] ?? 0)) / 2);
      expect(await page.locator(`${PLANT} li[data-flow="battery"]`).textContent()).toMatch(
        new RegExp(`(, ${mean}% full| idle)$`),
      );
    } finally {
      await mqtt.close();
    }
  });

  it("says what the house does now from the live reading: the battery's verb is the house diagram's direction", async () => {
    for (const { name, page } of pages) {
      const { direction, sentence } = await page.evaluate(() => {
        const { document } = globalThis as unknown as InPage;
        const item = document.querySelectorAll('[data-system="house"] li[data-flow="battery"]')[0];
        const present = document.querySelectorAll('[data-system="house"] [data-status="present"]')[0];
        return { direction: item?.getAttribute("data-direction"), sentence: present?.textContent ?? "" };
      });
      expect(sentence, name).toMatch(/^Now: /);
      if (direction === "in") expect(sentence, name).toContain("the battery discharges ");
      else if (direction === "out") expect(sentence, name).toContain("the battery charges at ");
      else expect(sentence, name).toContain("the battery is idle");
      // An optimiser's half-hour, where one plans, is the plan's, not the present.
      for (const line of await page.locator('[data-status="optimiser"]').allTextContents())
        expect(line).toMatch(/^[\w-]+'s plan for \d\d:\d\d–\d\d:\d\d: /);
    }
    expect(errors).toEqual([]);
  });

  it("says the price now from the rules' tariff, at both widths and themes", async () => {
    const { now } = (await (await fetch(new URL("api/now", demo.url))).json()) as LiveSnapshot;
    const pence = importPence(now);
    // Not at a zone's edge: the page's reading and the fetch are in the same half-hour.
    expect(importPence(now + 60_000)).toBe(pence);
    for (const { name, page } of pages) {
      const line = page.locator('[data-system="house"] .prices');
      expect(await line.textContent(), name).toBe(`Price now: import ${pence}p, export 15p per kWh`);
      expect(Number(await line.getAttribute("data-import")), name).toBeCloseTo(pence / 100, 6);
    }
  });

  it("shows the car card as the charger reports it on MQTT, before and after a car is plugged in", async () => {
    const snapshot = (await (await fetch(new URL("api/now", demo.url))).json()) as LiveSnapshot;
    expect(snapshot.cars.map((car) => car.name)).toEqual(["Driveway"]);
    const id = snapshot.cars[0]?.id ?? "";
    const mqtt = await observe(demo.app.mqttUrl, [`${demo.base}/${id}`]);
    try {
      /** Each page's card agrees with the charger's latest MQTT state (waited for: both follow the polls). */
      const agrees = async (plugged: boolean) => {
        for (const { name, page } of pages) {
          const card = page.locator(`section.car[data-car="${id}"]`);
          const field = (key: string) => card.locator(`[data-car-field="${key}"]`);
          await vi.waitFor(
            async () => {
              const state = JSON.parse(mqtt.messages.at(-1)?.payload ?? "{}") as Record<string, unknown>;
              const status = String(state.status);
              const plugWords = plugged ? "plugged in" : "not plugged in";
              expect(await field("plugged").textContent()).toBe(`${plugWords} (${status})`);
              const session = state.session_energy;
              expect(await field("session").textContent()).toBe(
                typeof session === "number" ? `${session.toFixed(2)} kWh` : "no session yet",
              );
              const soc = state.soc;
              expect(await field("soc").textContent()).toBe(
                typeof soc === "number" ? `${Math.round(soc)}%` : "not known",
              );
            },
            { timeout: 20_000, interval: 200 },
          );
          expect(await card.locator("h3").textContent(), name).toBe("Car on Driveway");
          // The deadline and target are the optimise rule's; the mode in evcc's words (GivEnergy's Eco is Min+PV).
          expect(await field("target").textContent(), name).toBe("20 kWh by 07:30");
          const mode = String((JSON.parse(mqtt.messages.at(-1)?.payload ?? "{}") as Record<string, unknown>).mode);
          expect(await field("mode").textContent(), name).toBe(`${EVCC[mode] ?? "?"} (the charger's ${mode})`);
          expect(await field("path").textContent(), name).toBe("the cloud");
        }
      };
      await agrees(false);
      await demo.admin(`/ev-chargers/${id}/car`, { plugged: true, soc_percent: 40 });
      await agrees(true);
      // Plug and go is off: the car waits (Preparing) and the last session stays closed, said as the last.
      expect(await pages[0]?.page.locator(`section.car[data-car="${id}"] dt`).allTextContents()).toContain(
        "Last session",
      );
    } finally {
      await mqtt.close();
    }
    expect(errors).toEqual([]);
  });
});

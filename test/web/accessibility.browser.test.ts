import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import { axeCheck } from "./axe.js";
import { hasChromium, launchChromium } from "./browser-launch.js";
import { DEMO_RULES, type Demo, startDemo } from "./demo.js";
import { fillWeek, WEEK_DEVICE } from "./known-week.js";
import { sidewaysOverflow } from "./sideways.js";

/*
 * Every page, at desktop and phone width, light and dark: axe-core (run in the page) finds no
 * serious or critical violation, nothing is wider than the screen, and Tab reaches every control.
 * Re-run after a page changes.
 */

const PAGES = ["now", "plan", "history", "backtest", "changes", "health"] as const;

/** The demo's rules and one whose condition does not hold now, so that its run-now dialog warns. */
const RULES = [
  DEMO_RULES,
  "  - name: car-boost-when-empty",
  '    when: { cheapest: { hours: 2, before: "07:00", tariff: import } }',
  "    if: { battery_soc_below: 1 }",
  "    do:",
  "      - charger: change-mode",
  "        with: { mode: Boost }",
].join("\n");
const WIDTHS = [1280, 390] as const;
const SCHEMES = ["light", "dark"] as const;

/** What the page's functions see of the browser (the tests compile without the DOM's types). */
interface InPage {
  readonly document: {
    readonly activeElement: { readonly tagName: string; getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): ArrayLike<{
      readonly tagName: string;
      readonly disabled?: boolean;
      getAttribute(name: string): string | null;
      getClientRects(): ArrayLike<unknown>;
      closest(selector: string): unknown;
    }>;
  };
}

describe.skipIf(!hasChromium)("accessibility of every page (axe-core and the keyboard)", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-a11y-"));
  let demo: Demo;
  let browser: Browser;

  beforeAll(async () => {
    await buildWebAssets();
    fillWeek(join(dir, "e2m.db"));
    demo = await startDemo(dir, {}, undefined, RULES);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  /** The page with its content loaded (what each page fills in after its first answer). */
  const show = async (page: Page, name: (typeof PAGES)[number]): Promise<void> => {
    await page.goto(`${demo.url}#${name}`);
    await page.waitForSelector("#stream.on", { timeout: 15_000 });
    if (name === "history") {
      await page.locator("#history-device").selectOption(WEEK_DEVICE);
      await page.locator('button[data-range="week"]').click();
      await page.waitForSelector('[data-days="7"]', { timeout: 20_000 });
    }
    if (name === "changes") await page.waitForSelector(".rule");
    // Each page fills in after its first answer: something after its heading, and no "Loading…" left.
    await page.waitForSelector("#main h2 ~ *:not(:empty)", { timeout: 15_000 });
    await page.waitForFunction(
      () =>
        !(
          (
            globalThis as unknown as { document: { getElementById(id: string): { textContent: string } | null } }
          ).document.getElementById("main")?.textContent ?? "Loading"
        ).includes("Loading"),
      undefined,
      { timeout: 15_000 },
    );
  };

  for (const width of WIDTHS)
    for (const scheme of SCHEMES)
      it(`finds no serious or critical violation and nothing wider than the screen on any page or dialog at ${width} px, ${scheme}`, async () => {
        // The page's CSP forbids inline scripts (rightly); the test's own axe-core is let in.
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme: scheme,
          bypassCSP: true,
        });
        const page = await context.newPage();
        await page.emulateMedia({ colorScheme: scheme });
        const found: string[] = [];
        for (const name of PAGES) {
          await show(page, name);
          found.push(...(await axeCheck(page, name)).serious);
          found.push(...(await sidewaysOverflow(page, name)));
          if (name === "changes") {
            // Each rule's run-now dialog too, open over the page (one whose condition fails says so in a warning).
            const runs = page.locator('.rule button[data-action="run"]');
            const count = await runs.count();
            expect(count).toBe(3);
            for (let index = 0; index < count; index++) {
              await runs.nth(index).click();
              const dialog = page.locator("dialog.run-preview[open]");
              await dialog.waitFor();
              const what = `changes, run-now dialog of ${await dialog.getAttribute("data-rule")}`;
              found.push(...(await axeCheck(page, what)).serious);
              found.push(...(await sidewaysOverflow(page, what)));
              await page.locator('dialog.run-preview button[data-confirm="cancel"]').click();
              await dialog.waitFor({ state: "detached" });
            }
          }
        }
        await context.close();
        expect(found).toEqual([]);
      });

  for (const width of WIDTHS)
    it(`reaches every control of every page by Tab at ${width} px`, async () => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const missed: string[] = [];
      const counted: Record<string, number> = {};
      for (const name of PAGES) {
        await show(page, name);
        // Every visible, enabled control, named by a selector-free key.
        const controls = await page.evaluate(() => {
          const { document } = globalThis as unknown as InPage;
          const nodes = Array.from(
            document.querySelectorAll(
              'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"]), summary',
            ),
          );
          return nodes
            .filter((node) => node.getClientRects().length > 0 && node.disabled !== true && !node.closest("[inert]"))
            .map((node, index) => {
              const key = `e2m-${index}`;
              (node as unknown as { dataset: Record<string, string> }).dataset.tabKey = key;
              return key;
            });
        });
        counted[name] = controls.length;
        const reached = new Set<string>();
        await page.evaluate(() => {
          (globalThis as unknown as { document: { body: { focus(): void } } }).document.body.focus();
        });
        for (let step = 0; step < controls.length + 40 && reached.size < controls.length; step++) {
          await page.keyboard.press("Tab");
          const key = await page.evaluate(
            () => (globalThis as unknown as InPage).document.activeElement?.getAttribute("data-tab-key") ?? null,
          );
          if (key) reached.add(key);
        }
        for (const key of controls)
          if (!reached.has(key)) {
            const what = await page
              .locator(`[data-tab-key="${key}"]`)
              .evaluate((node) => (node as unknown as { outerHTML: string }).outerHTML.slice(0, 120));
            missed.push(`${name}: ${what}`);
          }
      }
      await page.close();
      expect(missed).toEqual([]);
      // The menu's six links on every page, and more on those with controls.
      for (const name of PAGES) expect(counted[name], name).toBeGreaterThanOrEqual(5);
      expect(counted.changes).toBeGreaterThan(counted.health ?? 0);
    });
});

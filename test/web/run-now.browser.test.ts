import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildWebAssets } from "../../scripts/build-web.js";
import type { RuleStatus, RunPreview } from "../../src/rules-runtime/index.js";
import { axeCheck } from "./axe.js";
import { hasChromium, launchChromium } from "./browser-launch.js";
import { DEMO_BATTERY_AND_TARIFF } from "./demo.js";
import { type PlanDaemon, startPlanDaemon } from "./plan-daemon.js";

/*
 * Run now on the optimiser applies the plan's present half-hour, never its next window moved to
 * now: the dialog says what the plan is for this half-hour and previews exactly that. In dry run,
 * so the test house is only read. A second rule's condition fails, for the dialog's red line.
 */
const RULES = [
  "dry_run: true",
  ...DEMO_BATTERY_AND_TARIFF,
  "rules:",
  "  - name: optimiser",
  "    when: { optimise: { reserve_soc: 10 } }",
  "    if: { battery_soc_above: 1 }",
  "  - name: evening-export",
  "    priority: 5",
  '    when: { most_expensive: { hours: 2, before: "20:00", after: "16:00", tariff: export } }',
  "    if: { battery_soc_above: 100 }",
  "    do:",
  "      - preset: timed-export",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 20 }] }',
].join("\n");
const COMMAND = { "content-type": "application/json", "x-energy2mqtt-request": "1" };
const HALF_HOUR = 1_800_000;

describe.skipIf(!hasChromium)("Run now on the optimiser applies the plan's present half-hour", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-run-now-"));
  let daemon: PlanDaemon;
  let browser: Browser;
  /** The optimiser's plan for this half-hour, as the running rules say it. */
  let planNow: NonNullable<RuleStatus["planNow"]>;

  const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(new URL(path, daemon.url), init);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  const preview = (rule: string) =>
    api<RunPreview>(`api/rules/${rule}/preview`, { method: "POST", headers: COMMAND, body: "{}" });

  beforeAll(async () => {
    await buildWebAssets();
    daemon = await startPlanDaemon(dir, RULES);
    planNow = await vi.waitFor(
      async () => {
        const { rules } = await api<{ rules: RuleStatus[] }>("api/rules");
        const found = rules.find((rule) => rule.name === "optimiser")?.planNow;
        if (!found) throw new Error("the optimiser has not planned yet");
        return found;
      },
      { timeout: 30_000, interval: 300 },
    );
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it("previews the half-hour's action through the API, and never a later window moved to now", async () => {
    const answer = await preview("optimiser");
    expect(answer.planNow).toEqual(planNow);
    if (planNow.action === "self-use") {
      // Self-use is the inverter's own mode: nothing to send, and the run says so and sends nothing.
      expect(answer.ok).toBe(false);
      expect(answer.actions).toEqual([]);
      expect(answer.message).toContain("self-use");
      const run = await api<{ ok: boolean; message: string }>("api/rules/optimiser/run", {
        method: "POST",
        headers: COMMAND,
        body: JSON.stringify({ confirm: true }),
      });
      expect(run.ok).toBe(false);
      expect(run.message).toContain("nothing would be sent");
    } else {
      // A window of the plan's own action, from now to the end of the window holding now.
      expect(answer.ok).toBe(true);
      expect(answer.window?.start).toBeLessThan(planNow.start + HALF_HOUR);
      expect(answer.actions.length).toBeGreaterThan(0);
    }
  });

  for (const width of [1280, 390])
    for (const scheme of ["light", "dark"] as const)
      it(`shows the plan for this half-hour in the dialog at ${width} px, ${scheme}, and it passes axe`, async () => {
        const page: Page = await browser.newPage({
          viewport: { width, height: 900 },
          locale: "en-GB",
          colorScheme: scheme,
        });
        await page.goto(`${daemon.url}#changes`);
        await page.locator('.rule:has(input[data-rule="optimiser"]) button[data-action="run"]').click();
        const dialog = page.locator("dialog.run-preview[open]");
        await dialog.waitFor();
        const line = dialog.locator(".run-plan-now");
        expect(await line.getAttribute("data-plan-action")).toBe(planNow.action);
        expect(Number(await line.getAttribute("data-plan-start"))).toBe(planNow.start);
        const clock = new Intl.DateTimeFormat("en-GB", {
          timeZone: "Europe/London",
          hour: "2-digit",
          minute: "2-digit",
        });
        expect(await line.textContent()).toContain(
          `${clock.format(planNow.start)}–${clock.format(planNow.start + HALF_HOUR)}`,
        );
        expect(await line.textContent()).toContain(planNow.reason);
        const confirm = dialog.locator('button[data-confirm="run"]');
        if (planNow.action === "self-use") {
          expect(await line.locator("strong").textContent()).toBe("self-use (eco)");
          expect(await dialog.locator(".run-actions li").count()).toBe(0);
          expect(await confirm.isDisabled()).toBe(true);
          expect(await dialog.textContent()).toContain("nothing would be sent");
        } else {
          expect(await dialog.locator(".run-actions li").count()).toBeGreaterThan(0);
        }
        // The condition that holds, in its green, readable against the dialog.
        expect(await dialog.locator(".run-conditions li.holds").count()).toBe(1);
        const box = await dialog.boundingBox();
        expect(box && box.x + box.width).toBeLessThanOrEqual(width);
        const { serious, passed } = await axeCheck(page, `run dialog ${width} ${scheme}`, "dialog.run-preview");
        expect(passed).toBeGreaterThan(5);
        expect(serious).toEqual([]);
        await dialog.locator('button[data-confirm="cancel"]').click();

        // A condition that fails: its red line and the warning pass contrast too.
        await page.locator('.rule:has(input[data-rule="evening-export"]) button[data-action="run"]').click();
        await dialog.waitFor();
        expect(await dialog.locator(".run-conditions li.fails").count()).toBe(1);
        const failing = await axeCheck(page, `failing run dialog ${width} ${scheme}`, "dialog.run-preview");
        expect(failing.serious).toEqual([]);
        await page.close();
      });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as wait } from "node:timers/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildWebAssets } from "../../scripts/build-web.js";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { backupFile } from "../../src/control/index.js";
import { createLogger } from "../../src/log/log.js";
import { CALIBRATION_HOLDING } from "../../src/rules/engine/calibration-hold.js";
import type { LiveSnapshot } from "../../src/web/api-types.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";
import { axeCheck } from "./axe.js";
import { hasChromium, launchChromium } from "./browser-launch.js";
import { DEMO_BATTERY_AND_TARIFF } from "./demo.js";

/*
 * Issue 38 in the browser: what the house's owner sees of its faults, its settings backups, a
 * clock left wrong and a battery calibration, with the demo house on the LAN (the only path that
 * reads the clock and the calibration). One daemon and one simulator for the file, on the
 * simulator's manual clock, which the daemon shares; it is moved a poll at a time.
 */

const SERIAL = "SD2024G001";
const DEVICE = SERIAL.toLowerCase();
const MINUTE = 60_000;
const HOUR_MS = 60 * MINUTE;
/** The LAN's poll, and the small steps of the clock while its requests go out. */
const POLL_MS = MINUTE;
const TICK_MS = 500;
const SETTLE_TICKS = 16;
const RAISED = ["Grid voltage fault", "Battery BMS communication lost"];
const RULES = [
  ...DEMO_BATTERY_AND_TARIFF,
  "rules:",
  "  - name: optimiser",
  "    when: { optimise: { reserve_soc: 10 } }",
].join("\n");

describe.skipIf(!hasChromium)("faults, settings backups, the clock and a calibration on the page", () => {
  const dir = mkdtempSync(join(tmpdir(), "e2m-house-care-"));
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  let browser: Browser;
  let page: Page;
  let url: string;
  const errors: string[] = [];

  /**
   * One poll of the house: the clock jumps to just before the next poll is due, then moves in
   * small steps while its requests go out (the dongle session paces them, and times out an
   * answer, on this clock).
   */
  const onePoll = async (): Promise<void> => {
    sim.simulator.clock.advance(POLL_MS - SETTLE_TICKS * TICK_MS);
    for (let round = 0; round < SETTLE_TICKS; round++) {
      sim.simulator.clock.advance(TICK_MS);
      await wait(4);
    }
  };
  const snapshot = async (): Promise<LiveSnapshot> =>
    (await (await fetch(new URL("api/now", url))).json()) as LiveSnapshot;
  /** Moves the clock until `check` passes (a poll at a time), or fails after an hour of the house. */
  const until = async (check: () => Promise<boolean>, what: string): Promise<void> => {
    for (let polls = 0; polls < HOUR_MS / POLL_MS; polls++) {
      if (await check()) return;
      await onePoll();
    }
    throw new Error(`not seen within an hour of the house: ${what}`);
  };

  beforeAll(async () => {
    await buildWebAssets();
    sim = await startTestSimulator({
      scenario: "demo",
      speed: 0,
      start: MIDDAY,
      localPort: 0,
      localResponseDelayMs: 0,
      // The clock jumps a poll at a time: the dongle's heartbeat would otherwise close a client whose echoes come between the jumps.
      localHeartbeatMs: 24 * HOUR_MS,
    });
    writeFileSync(join(dir, "rules.yaml"), RULES);
    // The dongle session paces its requests on the clock: it must move for the daemon's first reads to finish.
    const pump = setInterval(() => sim.simulator.clock.advance(500), 5);
    app = await startApp(
      configSchema.parse({
        mqtt: { base_topic: `e2mcare${process.pid}` },
        source: "local",
        local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port, gap_ms: SIM_GAP_MS })),
        poll: { local: "1m", inventory: "1h" },
        clock: { sync: "warn" },
        rules: join(dir, "rules.yaml"),
        store: { path: join(dir, "e2m.db") },
        web: { port: 0 },
        log: { level: "silent" },
      }),
      createLogger(process.env.E2M_TEST_LOG ?? "silent"),
      "0.0.0-web",
      { clock: sim.simulator.clock },
    ).finally(() => clearInterval(pump));
    url = app.webUrl ?? "";
    browser = await launchChromium();
    page = await browser.newPage({
      locale: "en-GB",
      timezoneId: "Pacific/Chatham",
      viewport: { width: 1280, height: 900 },
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await until(
      async () => (await snapshot()).devices.some((d) => d.id === DEVICE && d.faults !== undefined),
      "faults read",
    );
    await page.goto(`${url}#now`);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const faultsCell = () => page.locator(`tr[data-device="${DEVICE}"] td[data-faults]`);

  it("shows a fault raised in the inverter in words in the Faults column, and none once it clears", async () => {
    await expect.poll(() => faultsCell().textContent(), { timeout: 20_000 }).toBe("none");
    await sim.admin(`/devices/${SERIAL}/faults`, { raise: RAISED });
    await until(
      async () => (await snapshot()).devices.find((d) => d.id === DEVICE)?.faults?.length === 2,
      "faults raised",
    );
    await expect.poll(() => faultsCell().getAttribute("data-faults"), { timeout: 20_000 }).toBe("active");
    const words = (await faultsCell().textContent()) ?? "";
    expect(words.split(", ").sort()).toEqual([...RAISED].sort());

    await sim.admin(`/devices/${SERIAL}/faults`, { clear: "all" });
    await until(
      async () => (await snapshot()).devices.find((d) => d.id === DEVICE)?.faults?.length === 0,
      "faults cleared",
    );
    await expect.poll(() => faultsCell().textContent(), { timeout: 20_000 }).toBe("none");
    expect(errors).toEqual([]);
  }, 120_000);

  it("warns of a clock left 10 minutes ahead (clock.sync: warn), naming the device, its drift and the fix", async () => {
    const repair = page.locator(`[data-repair="clock"][data-device="${DEVICE}"]`);
    expect(await repair.count()).toBe(0);
    await sim.admin(`/clocks/${SERIAL}`, { drift_s: 600 });
    await until(
      async () => (await snapshot()).devices.find((d) => d.id === DEVICE)?.clockProblem !== undefined,
      "the clock problem",
    );
    await repair.waitFor({ timeout: 20_000 });
    // The registers hold whole seconds: a reading is 600 s give or take the second it was read in.
    const tenMinutes = "(599|600|601) s ahead of the house's time";
    expect(await repair.locator("h3").textContent()).toMatch(
      new RegExp(`^Inverter ${SERIAL}.*: its clock is ${tenMinutes}$`),
    );
    const text = (await repair.textContent()) ?? "";
    expect(text).toMatch(new RegExp(`the clock of ${SERIAL} is ${tenMinutes}`));
    expect(text).toContain("Sync clock");
    expect(text).toContain(`{"serial": "${SERIAL}"}`);
    expect(text).toContain("bridge/request/clock/sync");
    expect(text).toContain("clock: {sync: auto}");
    const { serious, passed } = await axeCheck(page, "clock repair", `[data-repair="clock"]`);
    expect(serious).toEqual([]);
    expect(passed).toBeGreaterThan(0);
    // The warning writes nothing to the inverter.
    const clock = (await sim.admin(`/clocks/${SERIAL}`, undefined, "GET")) as { data: { drift_s: number } };
    expect(clock.data.drift_s).toBe(600);
    expect(errors).toEqual([]);
  }, 120_000);

  it("lists the daily settings backup on Health, and its download is the YAML a restore reads", async () => {
    type Listed = { backups: { id: number; serial: string; settings: number }[] };
    const listed = async (): Promise<Listed> =>
      (await (await fetch(new URL("api/settings-backups", url))).json()) as Listed;
    await until(async () => (await listed()).backups.some((backup) => backup.serial === SERIAL), "a backup");
    await page.goto(`${url}#health`);
    const row = page.locator(`[data-health="settings-backups"] li[data-device="${SERIAL}"]`);
    await row.waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toMatch(new RegExp(`^${SERIAL}: .*, \\d+ settings download \\(1 kept\\)$`));
    const href = await row.locator("a").getAttribute("href");
    const response = await fetch(new URL(href ?? "", url));
    expect(response.status).toBe(200);
    const file = backupFile.parse(parse(await response.text()));
    expect(file.devices.map((device) => [device.serial, device.path])).toEqual([[SERIAL, "local"]]);
    expect(errors).toEqual([]);
  }, 180_000);

  it("says on the Plan page that a running calibration holds the rules", async () => {
    await sim.admin(`/inverters/${SERIAL}/calibration`, { running: true });
    await page.goto(`${url}#plan`);
    const notes = page.locator("ul.notes");
    await until(async () => {
      await page.reload();
      await notes.waitFor({ timeout: 20_000 }).catch(() => undefined);
      return ((await notes.textContent().catch(() => "")) ?? "").includes(CALIBRATION_HOLDING);
    }, "the plan holding");
    expect(await notes.locator("li").first().textContent()).toMatch(new RegExp(`^${CALIBRATION_HOLDING}: `));
    await sim.admin(`/inverters/${SERIAL}/calibration`, { running: false });
    expect(errors).toEqual([]);
  }, 180_000);
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { EventBus } from "../../src/bus/event-bus.js";
import { configSchema } from "../../src/config/index.js";
import { backupFile, type DailySettingsBackup, dailySettingsBackup } from "../../src/control/index.js";
import { createLogger } from "../../src/log/log.js";
import { cloudControl, discoverInventory, type Inventory } from "../../src/sources/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import type { SettingsBackupsView } from "../../src/web/api-types.js";
import { type WebFeature, webFeature } from "../../src/web/feature.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";
import { freePort } from "../web/demo.js";

const SERIAL = "SD2024G001";
const RESERVE = 71;
const HOUR_MS = 3_600_000;

/**
 * The daemon's daily backup of each device's settings, on its clock: read over the path (here the
 * simulator's cloud over HTTP) into a real SQLite store, the last 30 per device kept, and handed
 * out by the web server as the YAML `settings restore` reads.
 */
describe("the daily settings backup", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let dir: string;
  let store: Store;
  let inventory: Inventory;
  let clock: VirtualClock;
  let daily: DailySettingsBackup;
  let web: WebFeature;

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, requestsPerMinute: 1_000_000 });
    dir = mkdtempSync(join(tmpdir(), "e2m-daily-backup-"));
    store = openStore(join(dir, "e2m.db"));
    const client = sim.clientFor("owner");
    inventory = await discoverInventory(client);
    clock = new VirtualClock(MIDDAY);
    daily = dailySettingsBackup({
      clock,
      reader: cloudControl(client),
      inventory: () => inventory,
      backups: store.settingsBackups,
      logger: createLogger("silent"),
    });
    daily.start();
    web = webFeature({
      config: configSchema.parse({ web: { port: await freePort() } }).web,
      bus: new EventBus(() => undefined),
      store,
      storePath: store.path,
      inventory: () => inventory,
      rules: () => undefined,
      plan: async () => undefined,
      budget: () => undefined,
      version: "0.0.0-backup",
      clock,
      simulated: true,
      logger: createLogger("silent"),
      assetsDir: dir,
    });
    await web.start();
  }, 60_000);
  afterAll(async () => {
    await web?.stop();
    await daily?.stop();
    store?.close();
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const advanceHours = async (hours: number) => {
    for (let hour = 0; hour < hours; hour++) {
      clock.advance(HOUR_MS);
      await daily.idle();
    }
  };
  const ofDevice = () => store.settingsBackups.list().filter((entry) => entry.serial === SERIAL);

  it("takes one a day on the daemon's clock, not one an hour", async () => {
    expect(ofDevice()).toEqual([]);
    await advanceHours(1);
    expect(ofDevice().map((entry) => entry.takenAt)).toEqual([MIDDAY + HOUR_MS]);
    await advanceHours(23);
    expect(ofDevice()).toHaveLength(1);
    await advanceHours(1);
    expect(ofDevice().map((entry) => entry.takenAt)).toEqual([MIDDAY + 25 * HOUR_MS, MIDDAY + HOUR_MS]);
  }, 120_000);

  it("keeps the last 30 per device: 31 days leave 30, the oldest dropped", async () => {
    // Two taken above; 29 more days make 31.
    await advanceHours(29 * 24);
    const kept = ofDevice();
    expect(kept).toHaveLength(30);
    expect(kept.at(-1)?.takenAt).toBe(MIDDAY + 25 * HOUR_MS);
    expect(kept[0]?.takenAt).toBe(MIDDAY + (30 * 24 + 1) * HOUR_MS);
  }, 300_000);

  it("lists them on the web server and hands one out as the YAML a restore reads", async () => {
    const listed = (await (await fetch(new URL("api/settings-backups", web.url))).json()) as SettingsBackupsView;
    const newest = listed.backups.find((entry) => entry.serial === SERIAL);
    expect(newest?.takenAt).toBe(MIDDAY + (30 * 24 + 1) * HOUR_MS);
    const response = await fetch(new URL(`api/settings-backups/${newest?.id}.yaml`, web.url));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("yaml");
    expect(response.headers.get("content-disposition")).toContain(`energy2mqtt-settings-${SERIAL}-`);
    const file = backupFile.parse(parse(await response.text()));
    expect(file.taken_at).toBe(new Date(MIDDAY + (30 * 24 + 1) * HOUR_MS).toISOString());
    expect(file.devices.map((device) => device.serial)).toEqual([SERIAL]);
    const reserve = await sim.clientFor("owner").inverterControl.readSetting(SERIAL, RESERVE);
    expect(file.devices[0]?.settings[String(RESERVE)]?.value).toBe(reserve.ok ? reserve.value : undefined);
    expect((await fetch(new URL("api/settings-backups/999999.yaml", web.url))).status).toBe(404);
  });
});

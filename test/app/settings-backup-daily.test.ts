import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { backupFile } from "../../src/control/index.js";
import { createLogger } from "../../src/log/log.js";
import type { SettingsBackupsView } from "../../src/web/api-types.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";

const SERIAL = "SD2024G001";
const MINUTE = 60_000;

/**
 * The running daemon takes its daily settings backup on its own clock (the simulator's manual
 * one, shared with the house), and its web server lists it and hands it out as YAML.
 */
describe("the daemon's daily settings backup", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  const dir = mkdtempSync(join(tmpdir(), "e2m-daily-backup-app-"));
  const base = `e2mbackup${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, requestsPerMinute: 1_000_000 });
    app = await startApp(
      configSchema.parse({
        cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
        mqtt: { url: broker.url, base_topic: base },
        homeassistant: { discovery_prefix: `${base}-ha`, status_topic: `${base}-ha/status` },
        poll: { inverter: "1h", ems: "1h", ev_charger: "1h", meter: "1h", inventory: "1h" },
        store: { path: join(dir, "e2m.db") },
        web: { port: 0 },
        log: { level: "silent" },
      }),
      createLogger("silent"),
      "0.0.0-test",
      { clock: sim.simulator.clock },
    );
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await sim?.stop();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const listed = async (): Promise<SettingsBackupsView> =>
    (await (await fetch(new URL("api/settings-backups", app.webUrl))).json()) as SettingsBackupsView;

  it("takes none before its first hourly check, then one per device, served as the YAML a restore reads", async () => {
    expect((await listed()).backups).toEqual([]);
    for (let minutes = 0; minutes < 60; minutes += 5) sim.simulator.clock.advance(5 * MINUTE);
    let newest: SettingsBackupsView["backups"][number] | undefined;
    await vi.waitFor(
      async () => {
        newest = (await listed()).backups.find((entry) => entry.serial === SERIAL);
        expect(newest).toBeDefined();
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(newest?.takenAt).toBe(MIDDAY + 60 * MINUTE);
    const response = await fetch(new URL(`api/settings-backups/${newest?.id}.yaml`, app.webUrl));
    expect(response.status).toBe(200);
    const file = backupFile.parse(parse(await response.text()));
    expect(file.devices.map((device) => [device.serial, device.path])).toEqual([[SERIAL, "cloud"]]);
    expect(Object.keys(file.devices[0]?.settings ?? {}).length).toBe(newest?.settings);
  }, 60_000);
});

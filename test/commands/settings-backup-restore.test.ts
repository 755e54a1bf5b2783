import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { parse, stringify } from "yaml";
import { runSettingsBackupCommand } from "../../src/commands/settings-backup.js";
import { runSettingsRestoreCommand } from "../../src/commands/settings-restore.js";
import { SimClock } from "../../src/simulator/clock.js";
import { openStore } from "../../src/store/index.js";
import { capture } from "../helpers/capture.js";
import { childOutput } from "../helpers/child-output.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";

const SERIAL = "SD2024G001";
/** Battery Reserve % Limit: on the cloud's listing and on the Hybrid's register map. */
const RESERVE = 71;
/** A setting number no device offers on either path: never allowlisted. */
const NOT_OFFERED = 9_999;

type Sim = Awaited<ReturnType<typeof startTestSimulator>>;

/**
 * `settings backup` then a setting changed on the simulator's side then `settings restore`, through
 * the commands as the CLI runs them, over each path the configuration can name: the diff shown,
 * nothing written until confirmed, then only the one differing setting written, read back and
 * audited as settings-restore; a setting off the allowlist listed and never sent.
 */
for (const path of ["cloud", "local"] as const) {
  describe(`settings backup and restore over ${path === "local" ? "the LAN" : "the cloud"}`, () => {
    let sim: Sim;
    let dir: string;
    let config: string;
    let storePath: string;
    let backupFile: string;
    /** The writes that reached the house: the cloud's applied ones, or the dongle's received frames. */
    let writes: () => number;

    beforeAll(async () => {
      sim = await startTestSimulator({
        speed: 0,
        start: MIDDAY,
        requestsPerMinute: 100_000,
        ...(path === "local" ? { localPort: 0, localResponseDelayMs: 0 } : {}),
      });
      dir = mkdtempSync(join(tmpdir(), `e2m-settings-${path}-`));
      storePath = join(dir, "e2m.db");
      backupFile = join(dir, "backup.yaml");
      config = join(dir, "configuration.yaml");
      const pathLines =
        path === "cloud"
          ? [
              "cloud:",
              `  url: ${sim.simulator.url}`,
              `  token: ${sim.simulator.tokens.owner}`,
              "  requests_per_minute: 10000",
            ]
          : [
              "source: local",
              "timezone: Europe/London",
              "local:",
              ...sim.simulator.dongles.map(
                (dongle) => `  - { host: 127.0.0.1, port: ${dongle.port}, gap_ms: ${SIM_GAP_MS} }`,
              ),
            ];
      writeFileSync(config, [...pathLines, "store:", `  path: ${storePath}`, "log:", "  level: silent", ""].join("\n"));
      if (path === "cloud") {
        let applied = 0;
        const served = sim.simulator.world.servedInverter(SERIAL);
        if (!served) throw new Error(`the simulator serves no ${SERIAL}`);
        served.control.onChange(() => {
          applied++;
        });
        writes = () => applied;
      } else {
        const dongle = sim.simulator.local?.find(SERIAL);
        if (!dongle) throw new Error(`no dongle for ${SERIAL}`);
        writes = () => dongle.writesReceived.length;
      }
    }, 60_000);
    afterAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      await sim.stop();
    });
    beforeEach(() => {
      for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "STORE_PATH"]) vi.stubEnv(`ENERGY2MQTT_${key}`, "");
    });
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    const clock = () => new SimClock({ start: MIDDAY });
    /**
     * Off the allowlist: over the cloud a number the inverter does not list; over the LAN a setting
     * the cloud lists whose register the model's map does not have (so the LAN never writes it).
     */
    const lanOnlyMissing = () => {
      const backup = parse(readFileSync(backupFile, "utf8")) as { devices: { serial: string; settings: object }[] };
      const onLan = new Set(Object.keys(backup.devices.find((one) => one.serial === SERIAL)?.settings ?? {}));
      const listed = sim.simulator.world.servedInverter(SERIAL)?.control.settingsList() ?? [];
      const missing = listed.find(
        (setting) => !onLan.has(String(setting.id)) && !setting.validation_rules?.includes("writeonly"),
      );
      if (!missing) throw new Error("every setting the cloud lists has a register on the LAN");
      return missing;
    };
    const notOffered = () => (path === "local" ? lanOnlyMissing().id : NOT_OFFERED);
    const notOfferedName = () => (path === "local" ? lanOnlyMissing().name : "Not offered");
    const reserveNow = async (): Promise<unknown> => {
      const read = await sim.clientFor("owner").inverterControl.readSetting(SERIAL, RESERVE);
      return read.ok ? read.value : `code ${read.code}`;
    };
    const restore = async (options: { yes?: boolean; ask?: string; file?: string }) => {
      const out = capture();
      const err = capture();
      const ask = options.ask === undefined ? undefined : PassThrough.from([`${options.ask}\n`]);
      const code = await runSettingsRestoreCommand(
        { file: options.file ?? backupFile, config, ...(options.yes ? { yes: true } : {}) },
        { out: out.stream, err: err.stream, ask, clock: clock() },
      );
      return { code, out: out.text(), err: err.text() };
    };
    const restoreAudit = () => {
      const store = openStore(storePath);
      try {
        return store.audit.recent({ limit: 100 }).filter((row) => row.source === "settings-restore");
      } finally {
        store.close();
      }
    };

    it("backs up every readable setting of each device with its serial, model, firmware and the time", async () => {
      const out = capture();
      const err = capture();
      const code = await runSettingsBackupCommand({ config, out: backupFile }, out.stream, err.stream, clock());
      expect(err.text()).toContain(`${SERIAL}: `);
      expect(code).toBe(0);
      const text = readFileSync(backupFile, "utf8");
      const backup = parse(text) as {
        format: string;
        taken_at: string;
        devices: {
          serial: string;
          model: string;
          firmware: object;
          path: string;
          settings: Record<string, { value: unknown }>;
        }[];
      };
      expect(backup.format).toBe("energy2mqtt-settings/1");
      expect(backup.taken_at.startsWith("2026-11-16T12:00")).toBe(true);
      const device = backup.devices.find((one) => one.serial === SERIAL);
      expect(device).toMatchObject({ path });
      expect(device?.model).not.toBe("");
      expect(Object.keys(device?.firmware ?? {}).length).toBeGreaterThan(0);
      expect(device?.settings[String(RESERVE)]?.value).toBe(await reserveNow());
    }, 60_000);

    it("shows the difference and writes nothing without a yes; then writes only the one that differs, read back and audited", async () => {
      const before = Number(await reserveNow());
      const changed = before === 40 ? 41 : 40;
      // Changed on the house's side (a write to the simulator's cloud, which the dongle serves too).
      expect((await sim.clientFor("owner").inverterControl.writeSetting(SERIAL, RESERVE, changed)).ok).toBe(true);
      const writesBefore = writes();

      const unconfirmed = await restore({});
      expect(unconfirmed.out).toContain(`${RESERVE} Battery Reserve % Limit: file ${before}, device ${changed}`);
      expect(unconfirmed.err).toContain("add --yes");
      expect(unconfirmed.code).toBe(2);
      const declined = await restore({ ask: "n" });
      expect(declined.err).toContain("nothing written");
      expect(declined.code).toBe(2);
      expect(writes()).toBe(writesBefore);
      expect(await reserveNow()).toBe(changed);
      expect(restoreAudit()).toEqual([]);

      const confirmed = await restore({ ask: "y" });
      expect(confirmed.out).toContain(`${SERIAL} ${RESERVE} Battery Reserve % Limit: written, read back`);
      expect(confirmed.code).toBe(0);
      expect(await reserveNow()).toBe(before);
      expect(writes()).toBe(writesBefore + 1);
      expect(restoreAudit()).toMatchObject([
        {
          source: "settings-restore",
          target: SERIAL,
          action: `setting:${RESERVE}`,
          request: { kind: "setting", serial: SERIAL, settingId: RESERVE, value: before },
          ok: true,
          verified: true,
        },
      ]);

      const again = await restore({ yes: true });
      expect(again.out).toContain("nothing to write");
      expect(again.code).toBe(0);
      expect(writes()).toBe(writesBefore + 1);
    }, 60_000);

    it("lists a setting off the allowlist and a value out of range with the reason, and never sends them", async () => {
      const backup = parse(readFileSync(backupFile, "utf8")) as {
        devices: { serial: string; settings: Record<string, { name?: string; value: unknown }> }[];
      };
      const device = backup.devices.find((one) => one.serial === SERIAL);
      if (!device) throw new Error("no device in the backup");
      device.settings[String(notOffered())] = { name: notOfferedName(), value: 1 };
      device.settings[String(RESERVE)] = { name: "Battery Reserve % Limit", value: 2 };
      const edited = join(dir, "edited.yaml");
      writeFileSync(edited, stringify(backup));
      const writesBefore = writes();
      const result = await restore({ yes: true, file: edited });
      expect(result.out).toContain(` cannot be written, never sent:`);
      expect(result.out).toContain(
        `${notOffered()} ${notOfferedName()}: file 1: not allowlisted: ${SERIAL} does not offer setting ${notOffered()} over ${path === "local" ? "the LAN" : "the cloud"}`,
      );
      expect(result.out).toContain(`${RESERVE} Battery Reserve % Limit: file 2: out of the device's range`);
      expect(result.out).toContain("nothing to write");
      expect(result.code).toBe(0);
      expect(writes()).toBe(writesBefore);
    }, 60_000);

    // The CLI entry and a locked device are the same on either path: run once, on the cloud.
    if (path === "cloud") {
      it("works through the real CLI entry: a restore with no terminal shows the diff and asks for --yes", async () => {
        const run = async (args: string[]) => {
          const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/cli-entry.ts", ...args], {
            stdio: ["pipe", "pipe", "pipe"],
            env: { ...process.env, ENERGY2MQTT_CONFIG: "" },
          });
          child.stdin.end();
          return childOutput(child);
        };
        const fromCli = join(dir, "from-cli.yaml");
        const backup = await run([
          "settings",
          "backup",
          "-c",
          config,
          "--device",
          SERIAL.toLowerCase(),
          "--out",
          fromCli,
        ]);
        expect(backup.stderr).toContain(`${SERIAL}: `);
        expect(backup.code).toBe(0);
        const before = Number(await reserveNow());
        const changed = before === 50 ? 51 : 50;
        expect((await sim.clientFor("owner").inverterControl.writeSetting(SERIAL, RESERVE, changed)).ok).toBe(true);
        const writesBefore = writes();
        const restored = await run(["settings", "restore", fromCli, "-c", config]);
        expect(restored.stdout).toContain(`${RESERVE} Battery Reserve % Limit: file ${before}, device ${changed}`);
        expect(restored.stderr).toContain("add --yes");
        expect(restored.code).toBe(2);
        expect(writes()).toBe(writesBefore);
        const confirmed = await run(["settings", "restore", fromCli, "-c", config, "--yes"]);
        expect(confirmed.code).toBe(0);
        expect(await reserveNow()).toBe(before);
        expect(writes()).toBe(writesBefore + 1);
      }, 60_000);
    }

    if (path === "cloud") {
      it("lists what the device cannot be read for with the reason, sends nothing, and exits 1", async () => {
        const before = Number(await reserveNow());
        expect(
          (await sim.clientFor("owner").inverterControl.writeSetting(SERIAL, RESERVE, before === 60 ? 61 : 60)).ok,
        ).toBe(true);
        const writesBefore = writes();
        await sim.admin(`/devices/${SERIAL}`, { locked: true });
        try {
          const result = await restore({ yes: true });
          expect(result.out).toContain("could not be read now, so not compared and never sent:");
          expect(result.out).toMatch(new RegExp(`${RESERVE} Battery Reserve % Limit: file ${before}: .+`));
          expect(result.err).toContain("run the restore again once the device answers");
          expect(result.code).toBe(1);
          expect(writes()).toBe(writesBefore);
        } finally {
          await sim.admin(`/devices/${SERIAL}`, { locked: false });
        }
        // Unlocked, the same file puts it back.
        expect((await restore({ yes: true })).code).toBe(0);
        expect(await reserveNow()).toBe(before);
      }, 60_000);
    }

    it("refuses a file for another serial, and a damaged file, naming the line and field to fix", async () => {
      const other = join(dir, "other.yaml");
      writeFileSync(other, readFileSync(backupFile, "utf8").replaceAll(SERIAL, "SX9999X999"));
      const refused = await restore({ yes: true, file: other });
      expect(refused.err).toMatch(/other\.yaml:\d+: devices\.\d+\.serial: SX9999X999 is not a device of this house/);
      expect(refused.code).toBe(2);

      const damaged = join(dir, "damaged.yaml");
      writeFileSync(damaged, readFileSync(backupFile, "utf8").replace(/taken_at: .*/, "taken_at: yesterday"));
      const bad = await restore({ yes: true, file: damaged });
      expect(bad.err).toMatch(/damaged\.yaml:\d+: taken_at: /);
      expect(bad.code).toBe(2);

      const backup = parse(readFileSync(backupFile, "utf8")) as {
        devices: { serial: string; settings: Record<string, { value: unknown }> }[];
      };
      const index = backup.devices.findIndex((one) => one.serial === SERIAL);
      const reserve = backup.devices[index]?.settings[String(RESERVE)];
      if (!reserve) throw new Error("no reserve in the backup");
      reserve.value = [30];
      const wrongValue = join(dir, "wrong-value.yaml");
      const text = stringify(backup);
      writeFileSync(wrongValue, text);
      const wrong = await restore({ yes: true, file: wrongValue });
      const keyLine =
        text.split("\n").findIndex((line) => line.trim() === `"${RESERVE}":` || line.trim() === `${RESERVE}:`) + 1;
      const reported = new RegExp(
        `wrong-value\\.yaml:(\\d+): devices\\.${index}\\.settings\\.${RESERVE}\\.value: `,
      ).exec(wrong.err);
      expect(reported, wrong.err).not.toBeNull();
      expect(Number(reported?.[1])).toBeGreaterThanOrEqual(keyLine);
      expect(Number(reported?.[1])).toBeLessThanOrEqual(keyLine + 3);
      expect(wrong.code).toBe(2);
    }, 60_000);
  });
}

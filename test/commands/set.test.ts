import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runSetCommand, type SetOptions } from "../../src/commands/set.js";
import { openStore } from "../../src/store/index.js";
import { capture } from "../helpers/capture.js";
import { startTestSimulator } from "../helpers/simulator.js";

const INVERTER = "SD2024G001";
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";

describe("energy2mqtt set", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let dir: string;
  let config: string;
  let storePath: string;

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: Date.UTC(2025, 5, 15, 11, 0, 0), requestsPerMinute: 100_000 });
    dir = mkdtempSync(join(tmpdir(), "e2m-set-"));
    storePath = join(dir, "data", "e2m.db");
    config = join(dir, "configuration.yaml");
    writeFileSync(
      config,
      [
        "cloud:",
        `  url: ${sim.simulator.url}`,
        `  token: ${sim.simulator.tokens.owner}`,
        "  requests_per_minute: 10000",
        "store:",
        `  path: ${storePath}`,
        "log:",
        "  level: error",
        "",
      ].join("\n"),
    );
  });
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

  const set = async (device: string, target: string, args: string[], file: string | undefined = config) => {
    const out = capture();
    const err = capture();
    const options: SetOptions = { device, target, args, ...(file === undefined ? {} : { config: file }) };
    const code = await runSetCommand(options, out.stream, err.stream);
    return { code, out: out.text(), err: err.text() };
  };
  const reserve = async (): Promise<unknown> => {
    const read = await sim.clientFor("owner").inverterControl.readSetting(INVERTER, 71);
    return read.ok ? read.value : `code ${read.code}`;
  };
  const lastAudit = () => {
    const store = openStore(storePath);
    try {
      return store.audit.recent({ limit: 1 })[0];
    } finally {
      store.close();
    }
  };

  it("writes a setting through the gate, verified, and records it in the audit log as the CLI", async () => {
    const { code, out, err } = await set(INVERTER, "71", ["30"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toBe("Battery Reserve % Limit set to 30\nok: true  code: -  verified: true  skipped: false\n");
    expect(await reserve()).toBe(30);
    expect(lastAudit()).toMatchObject({
      source: "cli",
      target: INVERTER,
      action: "setting:71",
      request: { kind: "setting", serial: INVERTER, settingId: 71, value: 30 },
      ok: true,
      verified: true,
    });
  });

  it("refuses a value the setting's rules do not allow with exit 2, saying what is allowed", async () => {
    const { code, out, err } = await set(INVERTER, "71", ["3"]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain("Refused, nothing sent: Battery Reserve % Limit must be between 4 and 100");
    expect(await reserve()).toBe(30);
    expect(lastAudit()).toMatchObject({ source: "cli", ok: false });
  });

  it("applies a preset from a JSON object, with the serial in any case", async () => {
    const slot = { start_time: "01:00", end_time: "04:30", percent_limit: 90 };
    const { code, out } = await set(INVERTER.toLowerCase(), "preset", [
      "timed-charge",
      JSON.stringify({ enabled: true, slots: [slot] }),
    ]);
    expect(code).toBe(0);
    expect(out).toContain("Timed Charge applied");
    const values = await sim.clientFor("owner").inverterControl.presetValues(INVERTER, "timed-charge");
    expect((values.slots as unknown[])[0]).toEqual(slot);
  });

  it("sends an EV command to a charger named by uuid or serial", async () => {
    const { code, out } = await set("EVC2024A001", "ev", ["change-mode", '{"mode":"Eco"}']);
    expect(code).toBe(0);
    expect(out).toContain("change-mode done");
    const unknown = await set(CHARGER, "ev", ["make-coffee"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown EV command "make-coffee"');
  });

  it("refuses an unknown device with exit 2 and lists the account's devices", async () => {
    const { code, err } = await set("SX0000X000", "71", ["30"]);
    expect(code).toBe(2);
    expect(err).toContain("inverter SX0000X000 is not one this account has");
    expect(err).toContain(`the account has inverters: ${INVERTER}`);
  });

  it("refuses bad usage with exit 2 before calling the cloud", async () => {
    const json = await set(INVERTER, "preset", ["timed-charge", "{enabled: true"]);
    expect(json.code).toBe(2);
    expect(json.err).toContain("not valid JSON");
    expect(json.err).toContain("usage: energy2mqtt set SERIAL SETTING_ID VALUE");
    expect((await set(INVERTER, "reserve", ["30"])).code).toBe(2);
    expect((await set(INVERTER, "71", [])).code).toBe(2);
    expect((await set(INVERTER, "preset", ["timed-charge", "[1]"])).err).toContain("expected a JSON object");
  });

  it("needs a configured cloud: no simulator for set", async () => {
    const file = join(dir, "local.yaml");
    writeFileSync(file, `store:\n  path: ${storePath}\n`);
    const { code, err } = await set(INVERTER, "71", ["30"], file);
    expect(code).toBe(2);
    expect(err).toContain("set needs a configured cloud");
  });

  it("works through the real CLI entry", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "test/helpers/cli-entry.ts", "set", "-c", config, INVERTER, "71", "42"],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ENERGY2MQTT_CONFIG: "" } },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const [code] = (await once(child, "exit")) as [number | null];
    expect(stdout).toContain("Battery Reserve % Limit set to 42");
    expect(code).toBe(0);
    expect(await reserve()).toBe(42);
  });
});

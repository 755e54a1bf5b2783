import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type ApiCommandOptions, runApiCommand } from "../../src/sources/cloud/commands/api.js";
import { openStore } from "../../src/store/index.js";
import { capture } from "../helpers/capture.js";
import { startTestSimulator } from "../helpers/simulator.js";

const INVERTER = "SD2024G001";
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
const RESERVE = `/inverter/${INVERTER}/settings/71/write`;

describe("energy2mqtt api: writes go through the control gate, or --raw", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let dir: string;
  let config: string;
  let storePath: string;

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: Date.UTC(2025, 5, 15, 11, 0, 0), requestsPerMinute: 100_000 });
    dir = mkdtempSync(join(tmpdir(), "e2m-api-gate-"));
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

  const api = async (method: string, path: string, data?: unknown, more: Partial<ApiCommandOptions> = {}) => {
    const out = capture();
    const err = capture();
    const options: ApiCommandOptions = {
      method,
      path,
      config,
      ...(data === undefined ? {} : { data: JSON.stringify(data) }),
      ...more,
    };
    const code = await runApiCommand(options, out.stream, err.stream);
    return { code, out: out.text(), err: err.text() };
  };
  const reserve = async (): Promise<unknown> => {
    const read = await sim.clientFor("owner").inverterControl.readSetting(INVERTER, 71);
    return read.ok ? read.value : `code ${read.code}`;
  };
  const audit = () => {
    const store = openStore(storePath);
    try {
      return store.audit.recent({ limit: 100 });
    } finally {
      store.close();
    }
  };

  it("writes a setting through the gate: validated, read back, audited as the CLI", async () => {
    const { code, out, err } = await api("POST", RESERVE, { value: 30, context: "ignored" });
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toBe("Battery Reserve % Limit set to 30\nok: true  code: -  verified: true  skipped: false\n");
    expect(await reserve()).toBe(30);
    expect(audit()[0]).toMatchObject({
      source: "cli",
      requesterName: "energy2mqtt api",
      target: INVERTER,
      action: "setting:71",
      request: { kind: "setting", serial: INVERTER, settingId: 71, value: 30 },
      ok: true,
      verified: true,
    });
  });

  it("refuses what the device's rules refuse, sends nothing, and records the refusal", async () => {
    const rows = audit().length;
    const { code, out, err } = await api("POST", RESERVE, { value: 3 });
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain("Refused, nothing sent: Battery Reserve % Limit must be between 4 and 100");
    expect(await reserve()).toBe(30);
    expect(audit()).toHaveLength(rows + 1);
    expect(audit()[0]).toMatchObject({ source: "cli", action: "setting:71", ok: false });
  });

  it("takes presets and EV commands as change requests", async () => {
    const slot = { start_time: "01:00", end_time: "04:30", percent_limit: 90 };
    const preset = await api("POST", `/inverter/${INVERTER}/presets/timed-charge`, { enabled: true, slots: [slot] });
    expect(preset.err).toBe("");
    expect(preset.code).toBe(0);
    expect(preset.out).toContain("Timed Charge applied");
    const values = await sim.clientFor("owner").inverterControl.presetValues(INVERTER, "timed-charge");
    expect((values.slots as unknown[])[0]).toEqual(slot);

    const ev = await api("POST", `/ev-charger/${CHARGER}/commands/change-mode`, { mode: "Eco" });
    expect(ev.code).toBe(0);
    expect(ev.out).toContain("change-mode done");
    expect(audit()[0]).toMatchObject({ source: "cli", target: CHARGER, action: "command:change-mode", ok: true });
  });

  it("says what is wrong with a known write's body, and sends nothing", async () => {
    const rows = audit().length;
    const { code, err } = await api("POST", RESERVE, { val: 40 });
    expect(code).toBe(2);
    expect(err).toContain('the body needs "value"');
    expect(err).toContain("nothing was sent");
    const ev = await api("POST", `/ev-charger/${CHARGER}/commands/make-coffee`, {});
    expect(ev.code).toBe(2);
    expect(ev.err).toContain('unknown EV command "make-coffee"');
    expect(audit()).toHaveLength(rows);
    expect(await reserve()).toBe(30);
  });

  it("refuses a write the gate does not take unless --raw is given, naming --raw", async () => {
    const rows = audit().length;
    const body = { setting_id: 71, value: 20, inverter_serials: [INVERTER] };
    const { code, out, err } = await api("POST", "/multi-control/write", body);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain("POST /multi-control/write is a write the control gate does not take");
    expect(err).toContain("add --raw");
    expect(audit()).toHaveLength(rows);
    expect(await reserve()).toBe(30);
  });

  it("--raw sends as is, says what it bypasses, and is audited as raw:METHOD PATH", async () => {
    const { code, err } = await api("POST", RESERVE, { value: 25 }, { raw: true });
    expect(code).toBe(0);
    expect(err).toContain("--raw: sent as is, past the control gate: no validation");
    expect(err).toContain("no read-back");
    expect(await reserve()).toBe(25);
    expect(audit()[0]).toMatchObject({
      source: "cli",
      requesterName: "energy2mqtt api --raw",
      targetKind: "inverter",
      target: INVERTER,
      action: `raw:POST ${RESERVE}`,
      request: { query: "", body: { value: 25 } },
      ok: true,
      code: 200,
      verified: false,
    });

    // The gate would have refused this before sending; raw, the cloud's own answer is what counts.
    const refused = await api("POST", RESERVE, { value: 3 }, { raw: true });
    expect(refused.code).toBe(0);
    expect(JSON.parse(refused.out)).toMatchObject({ data: { success: false } });
    expect(await reserve()).toBe(25);
    expect(audit()[0]).toMatchObject({
      action: `raw:POST ${RESERVE}`,
      ok: false,
      code: 200,
      message: "sent raw (not validated, not read back): HTTP 200: Battery Reserve % Limit must be between 4 and 100",
    });
    const invalid = await api("POST", RESERVE, { val: 3 }, { raw: true });
    expect(invalid.code).toBe(1);
    expect(audit()[0]).toMatchObject({ action: `raw:POST ${RESERVE}`, ok: false, code: 422, verified: false });
  });

  it("reads as before: a GET and a POST that only reads are neither gated nor audited", async () => {
    const rows = audit().length;
    const got = await api("GET", `/inverter/${INVERTER}/settings`);
    expect(got.code).toBe(0);
    const read = await api("POST", `/inverter/${INVERTER}/settings/71/read`, {});
    expect(read.code).toBe(0);
    expect(JSON.parse(read.out)).toMatchObject({ data: { value: 25 } });
    expect(audit()).toHaveLength(rows);
  });
});

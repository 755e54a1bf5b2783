import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/main.js";
import { runHealthCommand } from "../../src/commands/health.js";
import type { HealthStatus } from "../../src/health/index.js";
import { capture } from "../helpers/capture.js";

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

function status(overrides: Partial<HealthStatus> = {}): HealthStatus {
  return {
    at: iso(10_000),
    pid: 4242,
    mqtt: { connected: true, since: iso(600_000) },
    cloud: { last_success: iso(20_000), refused: null },
    devices: [],
    ...overrides,
  };
}

async function health(content: string | undefined, options: { maxAge?: string } = {}, env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), "e2m-health-cmd-"));
  const file = join(dir, "health.json");
  if (content !== undefined) writeFileSync(file, content);
  const out = capture();
  const err = capture();
  const code = await runHealthCommand({ file, ...options }, out.stream, err.stream, env);
  return { code, out: out.text(), err: err.text(), file, dir };
}

describe("energy2mqtt health", () => {
  it("exits 0 for a fresh status and says what it saw", async () => {
    const result = await health(JSON.stringify(status()));
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^healthy: pid 4242, status \d+s old, MQTT connected; cloud: last answered \d+s ago/);
  });

  it("exits 1 for a stale status, naming the pid and the age", async () => {
    const result = await health(JSON.stringify(status({ at: iso(300_000) })));
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/pid 4242\) last wrote its status 300s ago, more than the 90s allowed/);
  });

  it("honours --max-age", async () => {
    expect((await health(JSON.stringify(status({ at: iso(120_000) })), { maxAge: "5m" })).code).toBe(0);
    expect((await health(JSON.stringify(status()), { maxAge: "5s" })).code).toBe(1);
    const bad = await health(JSON.stringify(status()), { maxAge: "soon" });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('"soon" is not a duration');
  });

  it("exits 1 when a device's values are stale, naming the device and their age", async () => {
    const devices = [
      { device: "sd2024g001", name: "Inverter SD2024G001", age_seconds: 512, poll_seconds: 60, stale: true },
      { device: "em2024e001", name: "EMS EM2024E001", age_seconds: 20, poll_seconds: 60, stale: false },
    ];
    const result = await health(JSON.stringify(status({ devices })));
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      "Inverter SD2024G001 (sd2024g001) is stale: its last values are 512s old, more than twice its 60s poll interval",
    );
    expect(result.err).not.toContain("EM2024E001");
    const fresh = await health(JSON.stringify(status({ devices: devices.slice(1) })));
    expect(fresh.code).toBe(0);
  });

  it("exits 1 when MQTT has been down longer than the allowed age, but not for a short reconnect", async () => {
    const down = await health(JSON.stringify(status({ mqtt: { connected: false, since: iso(200_000) } })));
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/MQTT has been disconnected for 190s/);
    const blip = await health(JSON.stringify(status({ mqtt: { connected: false, since: iso(30_000) } })));
    expect(blip.code).toBe(0);
    expect(blip.out).toContain("MQTT reconnecting");
  });

  it("does not count a cloud outage against the daemon", async () => {
    const result = await health(JSON.stringify(status({ cloud: { last_success: null, refused: null } })));
    expect(result.code).toBe(0);
    expect(result.out).toContain("cloud: no successful request yet");
  });

  it("does not count devices gone stale while the cloud refuses the daemon, and says why", async () => {
    const refused = "The cloud refused: the token is wrong or the account lacks the vendor's API subscription";
    const devices = [{ device: "evc", name: "Car charger", age_seconds: 900, poll_seconds: 30, stale: true }];
    const result = await health(JSON.stringify(status({ cloud: { last_success: iso(900_000), refused }, devices })));
    expect(result.code).toBe(0);
    expect(result.out).toContain(`cloud: ${refused}`);
    expect(result.out).toContain(
      "Car charger (evc) is stale (its last values are 900s old) while the cloud refuses the daemon",
    );
    // A file from before the refusal was recorded reads as none.
    const { refused: _none, ...older } = status().cloud;
    expect((await health(JSON.stringify({ ...status({ devices }), cloud: older }))).code).toBe(1);
  });

  it("exits 1 with the path when there is no file, and for a damaged one", async () => {
    const missing = await health(undefined);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`no health file at ${missing.file}`);
    const damaged = await health("{not json");
    expect(damaged.code).toBe(1);
    expect(damaged.err).toContain("not a status the daemon wrote");
  });

  it("finds the file from ENERGY2MQTT_HEALTH_FILE, else next to the configured store", async () => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-health-env-"));
    writeFileSync(join(dir, "health.json"), JSON.stringify(status()));
    const viaEnv = await runHealthCommand({}, capture().stream, capture().stream, {
      ENERGY2MQTT_HEALTH_FILE: join(dir, "health.json"),
    });
    expect(viaEnv).toBe(0);
    const viaStore = await runHealthCommand({}, capture().stream, capture().stream, {
      ENERGY2MQTT_STORE_PATH: join(dir, "e2m.db"),
      ENERGY2MQTT_CONFIG: "",
    });
    expect(viaStore).toBe(0);
  });

  it("is wired into the CLI with --file and --max-age", async () => {
    const fresh = await health(JSON.stringify(status()));
    let printed = "";
    const keep = (chunk: string | Uint8Array) => {
      printed += String(chunk);
      return true;
    };
    vi.spyOn(process.stdout, "write").mockImplementation(keep);
    vi.spyOn(process.stderr, "write").mockImplementation(keep);
    try {
      expect(await main(["health", "--file", fresh.file])).toBe(0);
      expect(await main(["health", "--file", fresh.file, "--max-age", "1s"])).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect(printed).toContain("healthy: pid 4242");
    expect(printed).toContain("more than the 1s allowed");
  });
});

import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runArchiveCommand } from "../../src/sources/cloud/commands/archive.js";
import { openStore } from "../../src/store/index.js";
import { addDays, dayOf } from "../../src/time/local-days.js";
import { capture } from "../helpers/capture.js";
import { startTestSimulator } from "../helpers/simulator.js";

const INVERTERS = ["SD2024G001", "SE2024G101", "SE2024G102"];
const TZ = "Europe/London";
const CLI_ENTRY = fileURLToPath(new URL("../helpers/cli-entry.ts", import.meta.url));

describe("energy2mqtt archive", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let dir: string;

  beforeAll(async () => {
    // The command reads the simulator's clock, so both agree on "today" whatever the date.
    sim = await startTestSimulator({ speed: 1, requestsPerMinute: 100_000 });
    dir = mkdtempSync(join(tmpdir(), "e2m-archive-cli-"));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await sim.stop();
  });
  beforeEach(() => {
    for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "CLOUD_REQUESTS_PER_MINUTE", "STORE_PATH"]) {
      vi.stubEnv(`ENERGY2MQTT_${key}`, "");
    }
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const configFile = (name: string, lines: readonly string[]): string => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    return file;
  };
  const cloudConfig = (name: string, perMinute = 10_000) =>
    configFile(name, [
      "cloud:",
      `  url: ${sim.simulator.url}`,
      `  token: ${sim.simulator.tokens.owner}`,
      `  requests_per_minute: ${perMinute}`,
      "store:",
      `  path: ${join(dir, `${name}.db`)}`,
      "log:",
      "  level: error",
    ]);
  const run = async (options: Parameters<typeof runArchiveCommand>[0], signals = new EventEmitter()) => {
    const out = capture();
    const err = capture();
    const code = await runArchiveCommand(options, {
      out: out.stream,
      err: err.stream,
      signals: signals as unknown as NodeJS.Process,
      clock: sim.simulator.clock,
    });
    return { code, out: out.text(), err: err.text() };
  };
  const today = () => dayOf(sim.simulator.clock.now(), TZ);

  it.each([
    [{ from: "2025-02-30" }, '--from must be a date as YYYY-MM-DD, got "2025-02-30"'],
    [{ to: "yesterday" }, '--to must be a date as YYYY-MM-DD, got "yesterday"'],
    [{ from: "2025-03-10", to: "2025-03-01" }, "--from (2025-03-10) is after --to (2025-03-01)"],
    [{ only: "inverter.point,telepathy" }, 'unknown --only kind "telepathy"; allowed: inverter.point, flow.half_hour'],
  ])("exits 2 on bad arguments: %j", async (options, message) => {
    const { code, err, out } = await run({ config: cloudConfig("args"), ...options });
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(out).toBe("");
  });

  it("exits 2 with no cloud configured, saying what to set", async () => {
    const file = configFile("nocloud", ["store:", `  path: ${join(dir, "nocloud.db")}`]);
    const { code, err } = await run({ config: file });
    expect(code).toBe(2);
    expect(err).toContain("set cloud.url and cloud.token");
    expect(err).toContain("energy2mqtt simulate");
  });

  it("archives the kinds asked for and prints what it copied", async () => {
    const from = addDays(today(), -2);
    const { code, out } = await run({ config: cloudConfig("run"), from, only: "flow.day,ev.session" });
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}flow\.day +\d+ row\(s\) \(\d+ new\) over 9 day\(s\), 6 complete; 3 device\(s\)$/m);
    expect(out).toMatch(/^ {2}ev\.session /m);
    expect(out).not.toContain("inverter.point");
    expect(out).not.toContain(sim.simulator.tokens.owner);
  });

  it("stops cleanly on Ctrl-C (exit 130) and a rerun finishes the job", async () => {
    const file = cloudConfig("sigint");
    const from = addDays(today(), -5);
    const signals = new EventEmitter();
    const pending = run({ config: file, from, only: "inverter.point" }, signals);
    signals.emit("SIGINT");
    const first = await pending;
    expect(first.code).toBe(130);
    expect(first.err).toContain("stopping: the requests under way are dropped, what is saved stays");

    const second = await run({ config: file, from, only: "inverter.point" });
    expect(second.code).toBe(0);
    const store = openStore(join(dir, "sigint.db"));
    try {
      for (const serial of INVERTERS) expect(store.history.completeDays("inverter.point", serial).size).toBe(5);
    } finally {
      store.close();
    }
  });

  it("says when and why it waits for the rate window, stops within 2 s of Ctrl-C there, and a rerun resumes", async () => {
    // 30 requests a minute: the 3 x 21 days asked for cannot all go in the first window.
    const file = cloudConfig("waiting", 30);
    const dbPath = join(dir, "waiting.db");
    const from = addDays(today(), -20);
    // The child runs on the wall clock: --to names the simulator's yesterday, so both agree.
    const to = addDays(today(), -1);
    const args = [CLI_ENTRY, "archive", "-c", file, "--from", from, "--to", to, "--only", "inverter.point"];
    const child = spawn(process.execPath, ["--import", "tsx", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const waitLine = /waiting (\d+) s for the rate window \(30 requests\/min\)/;
    for (let i = 0; i < 600 && !waitLine.test(stderr); i++) await sleep(100);
    const seconds = Number(waitLine.exec(stderr)?.[1]);
    expect(seconds, stderr).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);

    const interruptedAt = performance.now();
    child.kill("SIGINT");
    const code = await exited;
    const stoppedIn = performance.now() - interruptedAt;
    console.info(`[archive] stopped ${stoppedIn.toFixed(0)} ms after SIGINT during a ${seconds} s wait`);
    expect(code, stderr).toBe(130);
    // The promise to the user: Ctrl-C ends it within 2 seconds, even in a wait of a minute.
    expect(stoppedIn).toBeLessThan(2000);
    expect(stderr).toContain("stopping: the requests under way are dropped, what is saved stays");
    expect(stdout).toContain("interrupted: run again to resume");
    const saved = completedDays(dbPath, "SD2024G001") + completedDays(dbPath, "SE2024G101");
    expect(saved).toBeGreaterThan(0);

    vi.stubEnv("ENERGY2MQTT_CLOUD_REQUESTS_PER_MINUTE", "10000");
    const second = await run({ config: file, from, to, only: "inverter.point" });
    expect(second.code, second.err).toBe(0);
    // Every day before today (today is not over, so not complete).
    for (const serial of INVERTERS) expect(completedDays(dbPath, serial), serial).toBe(20);
  }, 90_000);

  it("resumes after being killed mid-archive, with every day and no duplicates", async () => {
    // A slow budget (54 background requests a minute) holds the child in its second window.
    const file = cloudConfig("killed", 60);
    const dbPath = join(dir, "killed.db");
    const from = addDays(today(), -20);
    // The child runs on the wall clock: --to names the simulator's yesterday, so both agree.
    const args = [CLI_ENTRY, "archive", "-c", file, "--from", from, "--to", addDays(today(), -1)];
    const first = spawn(process.execPath, ["--import", "tsx", ...args], { stdio: "ignore" });
    const exited = new Promise<number | null>((resolve) => first.once("exit", (code) => resolve(code)));
    let progressed = false;
    for (let i = 0; i < 600 && !progressed; i++) {
      await sleep(100);
      progressed = completedDays(dbPath, "SD2024G001") >= 5;
    }
    expect(progressed).toBe(true);
    first.kill("SIGKILL");
    expect(await exited).toBeNull();
    const partial = completedDays(dbPath, "SE2024G102");
    expect(partial).toBeLessThan(20);

    vi.stubEnv("ENERGY2MQTT_CLOUD_REQUESTS_PER_MINUTE", "10000");
    const second = spawn(process.execPath, ["--import", "tsx", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env },
    });
    let output = "";
    second.stdout?.on("data", (chunk) => {
      output += String(chunk);
    });
    const code = await new Promise<number | null>((resolve) => second.once("exit", (c) => resolve(c)));
    expect(code, output).toBe(0);

    const client = sim.clientFor("owner");
    const store = openStore(dbPath);
    try {
      for (const serial of INVERTERS) {
        expect(store.history.completeDays("inverter.point", serial).size, serial).toBe(20);
        const rows = [...store.history.query({ kind: "inverter.point", device: serial })];
        expect(new Set(rows.map((row) => row.at)).size).toBe(rows.length);
      }
      // Every point the cloud serves for a day read before the kill, and one read after it.
      for (const day of [from, addDays(today(), -1)]) {
        const served = await client.inverterData.dataPoints("SE2024G102", day, { pageSize: 1000 }).all();
        const stored = [...store.history.query({ kind: "inverter.point", device: "SE2024G102" })].filter(
          (row) => dayOf(row.at, TZ) === day,
        );
        expect(stored.length, day).toBe(served.length);
      }
    } finally {
      store.close();
    }
  }, 90_000);
});

function completedDays(dbPath: string, serial: string): number {
  try {
    const store = openStore(dbPath);
    try {
      return store.history.completeDays("inverter.point", serial).size;
    } finally {
      store.close();
    }
  } catch {
    return 0;
  }
}

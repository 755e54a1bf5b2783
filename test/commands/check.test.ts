import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runCheckCommand } from "../../src/commands/check.js";
import { freePort, startTestBroker, type TestBroker } from "../helpers/broker.js";
import { capture } from "../helpers/capture.js";
import { startTestSimulator } from "../helpers/simulator.js";

describe("energy2mqtt check", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let dir: string;
  let broker: TestBroker;
  let brokerUrl: string;

  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: Date.UTC(2025, 5, 15, 11, 0, 0), requestsPerMinute: 100_000 });
    dir = mkdtempSync(join(tmpdir(), "e2m-check-"));
    broker = await startTestBroker();
    brokerUrl = broker.url;
  });
  afterAll(async () => {
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
    await sim.stop();
  });
  beforeEach(() => {
    for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "MQTT_URL"]) vi.stubEnv(`ENERGY2MQTT_${key}`, "");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const configFor = (name: string, lines: readonly string[]): string => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    return file;
  };
  const cloudConfig = (actor: string, token = sim.simulator.tokens[actor] ?? "") =>
    configFor(actor, [
      "cloud:",
      `  url: ${sim.simulator.url}`,
      `  token: ${token}`,
      "  requests_per_minute: 10000",
      "mqtt:",
      `  url: ${brokerUrl}`,
      "store:",
      `  path: ${join(dir, "e2m.db")}`,
      "log:",
      "  level: error",
    ]);
  const check = async (file: string | undefined) => {
    const out = capture();
    const err = capture();
    const code = await runCheckCommand(file === undefined ? {} : { config: file }, out.stream, err.stream);
    return { code, out: out.text(), err: err.text() };
  };

  it("checks the token, lists what the account has, and never prints the token", async () => {
    const file = cloudConfig("owner");
    const { code, out, err } = await check(file);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain(`configuration: ${file} is valid`);
    expect(out).toContain("the token works");
    expect(out).toContain("account: demo-owner (id 1001");
    expect(out).toMatch(/^ {2}SD2024G001 {2}GIV-HY5\.0 .*controllable: \d+ settings, \d+ presets$/m);
    expect(out).toContain("SE2024G101  GIV-AC3.0  1 battery module(s), 0 meter(s); controlled through EMS EM2024E001");
    expect(out).toContain("EM2024E001  GIV-EMS  inverters SE2024G101, SE2024G102");
    expect(out).toMatch(/Driveway {2}EVC2024A001 {2}uuid 6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11 {2}\d+ command/);
    expect(out).toContain("Dishwasher  uuid 9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a");
    expect(out).toContain(`mqtt: ${brokerUrl}: connected (CONNACK 0, accepted)`);
    expect(out + err).not.toContain(sim.simulator.tokens.owner);
  });

  it("exits 2 on a refused token, saying how to make one", async () => {
    const { code, err } = await check(cloudConfig("owner", "sim_owner_not_a_real_token"));
    expect(code).toBe(2);
    expect(err).toContain("401");
    expect(err).toContain("API tokens");
  });

  it("exits 1 when the account has no subscription (402)", async () => {
    const { code, err } = await check(cloudConfig("free"));
    expect(code).toBe(1);
    expect(err).toContain("premium subscription");
    expect(err).toContain("402");
  });

  it("exits 2 on a bad configuration file, naming the file, line and key", async () => {
    const file = configFor("bad", ["cloud:", "  url: ftp://example.com", "poll:", "  inverter: soon"]);
    const { code, out, err } = await check(file);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toContain(`${file}:2: cloud.url: must be a URL starting with http:// or https://`);
    expect(err).toContain(`${file}:4: poll.inverter`);
  });

  it("without a cloud says that run will use the built-in simulator, and reports an unreachable broker", async () => {
    const port = await freePort();
    const file = configFor("local", ["mqtt:", `  url: mqtt://127.0.0.1:${port}`]);
    const { code, out } = await check(file);
    expect(code).toBe(0);
    expect(out).toContain("will use the built-in simulator");
    expect(out).toContain(`mqtt: mqtt://127.0.0.1:${port}: not reachable (ECONNREFUSED)`);
  });
});

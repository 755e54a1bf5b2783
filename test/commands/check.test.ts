import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runCheckCommand } from "../../src/commands/check.js";
import { loadScenario } from "../../src/simulator/scenario/load.js";
import { ALL_SCOPES } from "../../src/simulator/scenario/schema.js";
import { freePort, startTestBroker, type TestBroker } from "../helpers/broker.js";
import { capture } from "../helpers/capture.js";
import { startTestSimulator } from "../helpers/simulator.js";

describe("energy2mqtt check", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let dir: string;
  let broker: TestBroker;
  let brokerUrl: string;

  beforeAll(async () => {
    // The demo house, with two more tokens: one without live data, one without the account.
    const demo = loadScenario("demo");
    const without = (scope: string) => ALL_SCOPES.filter((s) => s !== scope);
    const scenario = {
      ...demo,
      actors: [
        ...demo.actors,
        { name: "nodata", account: "demo-owner", type: "user" as const, scopes: without("api:inverter:data") },
        { name: "noaccount", account: "demo-owner", type: "user" as const, scopes: without("api:account:read") },
      ],
    };
    sim = await startTestSimulator({
      scenario,
      speed: 0,
      start: Date.UTC(2025, 5, 15, 11, 0, 0),
      requestsPerMinute: 100_000,
    });
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

  /** The lines after "summary:", which must end the output. */
  const summaryOf = (out: string): string[] => {
    const at = out.indexOf("\nsummary:\n");
    expect(at, out).toBeGreaterThan(0);
    return out
      .slice(at + "\nsummary:\n".length)
      .trimEnd()
      .split("\n");
  };

  it("checks the token, lists what the account has, and never prints the token", async () => {
    const file = cloudConfig("owner");
    const { code, out, err } = await check(file);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain(`configuration: ${file} is valid`);
    expect(out).toContain("the token is accepted");
    expect(out).toContain("account: demo-owner (id 1001");
    expect(out).toMatch(/^ {2}SD2024G001 {2}GIV-HY5\.0 .*controllable: \d+ settings, \d+ presets$/m);
    expect(out).toContain("SE2024G101  GIV-AC3.0  1 battery module(s), 0 meter(s); controlled through EMS EM2024E001");
    expect(out).toContain("EM2024E001  Plant EMS  inverters SE2024G101, SE2024G102");
    expect(out).toMatch(/Driveway {2}EVC2024A001 {2}uuid 6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11 {2}\d+ command/);
    expect(out).toContain("Dishwasher  uuid 9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a");
    expect(out).toContain(`mqtt: ${brokerUrl}: connected (CONNACK 0, accepted)`);
    expect(out + err).not.toContain(sim.simulator.tokens.owner);
    const summary = summaryOf(out);
    expect(summary[0]).toMatch(
      /^ {2}works: the account, the device lists, live inverter and meter data, .*inverter settings and presets/,
    );
    expect(summary.filter((line) => line.startsWith("  missing"))).toEqual([]);
    expect(summary.at(-1)).toBe("  ready: the token has every scope a read can check");
  });

  it("ends with what a read-only token lacks and what that costs, as plain lines, and still exits 0", async () => {
    const { code, out, err } = await check(cloudConfig("readonly"));
    expect(code).toBe(0);
    // Nothing logged in between: no JSON lines on either stream.
    expect(err).toBe("");
    expect(out).not.toMatch(/^\{/m);
    const summary = summaryOf(out);
    expect(summary).toContain(
      "  missing: api:inverter:control: Home Assistant gets no inverter controls and the tariff rules cannot change anything",
    );
    expect(summary).toContain(
      "  missing: api:ev-charger:control: Home Assistant gets no charger controls and the rules cannot start or stop charging",
    );
    expect(summary.some((line) => line.startsWith("  not checked (only a change could test them"))).toBe(true);
    expect(summary).toContain("    api:notification:send: without it the rules' notify action fails");
    // Its endpoint needs api:inverter:control as well, so its answer would say nothing.
    expect(summary.some((line) => line.startsWith("  missing: api:snapshot:read"))).toBe(false);
    expect(summary).toContainEqual(expect.stringMatching(/^ {2}not tried .*: api:snapshot:read$/));
    expect(summary.at(-1)).toMatch(/^ {2}ready, with less: /);
  });

  it("exits 1 and says not ready when the token lacks a scope energy2mqtt needs", async () => {
    const { code, out } = await check(cloudConfig("nodata"));
    expect(code).toBe(1);
    const summary = summaryOf(out);
    expect(summary).toContain(
      "  missing: api:inverter:data (needed): no live power, battery or energy figures, and no history",
    );
    expect(summary.at(-1)).toMatch(/^ {2}not ready: the token lacks api:inverter:data, which energy2mqtt needs/);
  });

  it("exits 1 when the token cannot even read the account, saying which scope", async () => {
    const { code, out, err } = await check(cloudConfig("noaccount"));
    expect(code).toBe(1);
    expect(err).toContain("api:account:read");
    expect(summaryOf(out)).toContain(
      "  missing: api:account:read: energy2mqtt cannot start without reading the account",
    );
  });

  it("exits 2 on a refused token, saying how to make one", async () => {
    const { code, err } = await check(cloudConfig("owner", "sim_owner_not_a_real_token"));
    expect(code).toBe(2);
    expect(err).toContain("401");
    expect(err).toContain("API tokens");
  });

  it("reads a 401 as a wrong token or a lapsed API subscription, and says which is likelier", async () => {
    const owner = cloudConfig("owner");
    expect((await check(owner)).code).toBe(0);
    await sim.admin("/subscription", { active: false });
    try {
      const lapsed = await check(owner);
      expect(lapsed.code).toBe(2);
      expect(lapsed.err).toContain(
        "refused: the token is wrong or the account lacks the vendor's API subscription (required since May 2026) (401)",
      );
      expect(lapsed.err).toContain(
        "This token worked before and now every endpoint refuses it: a lapsed subscription is likelier",
      );
      const fresh = await check(cloudConfig("owner", "sim_owner_never_seen_before"));
      expect(fresh.code).toBe(2);
      expect(fresh.err).toContain(
        "This token was refused the first time it was used: a wrong or mistyped token is likelier",
      );
      expect(fresh.err).not.toContain("sim_owner_never_seen_before");
    } finally {
      await sim.admin("/subscription", { active: true });
    }
  });

  it("exits 2 for source: auto without a cloud, saying what to set", async () => {
    const file = configFor("autonocloud", [
      "source: auto",
      "local:",
      "  - host: 127.0.0.1",
      "    port: 1",
      "mqtt:",
      `  url: ${brokerUrl}`,
      "store:",
      `  path: ${join(dir, "e2m.db")}`,
    ]);
    const { code, err } = await check(file);
    expect(code).toBe(2);
    expect(err).toContain(
      "source: auto reads each device's dongle with the cloud as fallback: set cloud.url and cloud.token",
    );
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

  it("exits 2 on a poll duration out of range (zero, negative, beyond a day), naming file, line, key and range", async () => {
    for (const [text, shown] of [
      ["0s", "0s"],
      ["-5", "-5s"],
      ["99999999h", "99999999h"],
    ] as const) {
      const file = configFor("poll", ["poll:", "  meter: 5m", `  ev_charger: ${text}`]);
      const { code, out, err } = await check(file);
      expect(code, text).toBe(2);
      expect(out).toBe("");
      expect(err).toContain(
        `${file}:3: poll.ev_charger: ${shown} is out of range: use a duration from 1s to 24h, e.g. 30s`,
      );
    }
  });

  it("checks the rules' literal values against the devices' own rules, exit 2 naming file, line and key", async () => {
    const rulesFile = join(dir, "rules-out-of-range.yaml");
    writeFileSync(
      rulesFile,
      [
        "rules:",
        "  - name: reserve-low",
        '    when: { cron: "0 3 * * *" }',
        "    do:",
        "      - setting: 71",
        "        value: 101",
        "      - preset: battery-operating-range",
        "        with: { reserve_percent: 2 }",
        "  - name: fine",
        '    when: { cron: "0 4 * * *" }',
        "    do:",
        '      - setting: "Battery Reserve % Limit"',
        '        value: "{{ state.battery_soc }}"',
        "      - preset: timed-discharge",
        '        with: { enabled: true, max_power_watts: 99999, slots: [{ start_time: "{{ now.time }}", end_time: "23:00" }] }',
        "",
      ].join("\n"),
    );
    const file = configFor("device-rules", [
      ...readFileSync(cloudConfig("owner"), "utf8").split("\n"),
      `rules: ${rulesFile}`,
    ]);
    const { code, out, err } = await check(file);
    expect(code).toBe(2);
    expect(out).toContain("the token is accepted");
    expect(err).toContain(
      `${rulesFile}:6: rules.0.do.0.value: Battery Reserve % Limit must be between 4 and 100 (allowed: a number between 4 and 100)`,
    );
    expect(err).toContain(`${rulesFile}:8: rules.0.do.1.with: reserve_percent must be`);
    expect(err).toContain(`${rulesFile}:15: rules.1.do.1.with: max_power_watts must be`);
    expect(err).not.toContain("start_time");
    expect(err).not.toContain("rules.1.do.0");
  });

  it("says what it checked of fitting rules, and what only a run can check", async () => {
    const rulesFile = join(dir, "rules-in-range.yaml");
    writeFileSync(
      rulesFile,
      [
        "rules:",
        "  - name: fine",
        '    when: { cron: "0 4 * * *" }',
        "    do:",
        "      - setting: 71",
        "        value: 20",
        '      - setting: "Battery Reserve % Limit"',
        '        value: "{{ state.battery_soc }}"',
        "",
      ].join("\n"),
    );
    const file = configFor("fitting-rules", [
      ...readFileSync(cloudConfig("owner"), "utf8").split("\n"),
      `rules: ${rulesFile}`,
    ]);
    const { code, out, err } = await check(file);
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain(
      "rules: 1 literal value(s) fit the devices' own rules; 1 templated value(s) can only be checked when the rule runs",
    );
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

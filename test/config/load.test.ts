import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { configFile, problemsOf } from "./helpers.js";

describe("configuration", () => {
  it("runs on embedded defaults with no file at all", () => {
    const { config, file } = loadConfig(undefined, {});
    expect(file).toBeUndefined();
    expect(config.cloud.url).toBeUndefined();
    expect(config.mqtt.url).toBeUndefined();
    expect(config.mqtt.base_topic).toBe("energy2mqtt");
    expect(config.cloud.requests_per_minute).toBe(300);
    expect(config.poll.inverter).toBe(60_000);
  });

  it("accepts the repository's commented example, copied with its secrets file as the README says", () => {
    const example = (name: string) => readFileSync(new URL(`../../config/${name}`, import.meta.url), "utf8");
    const file = configFile(example("configuration.example.yaml"), example("secrets.example.yaml"));
    const { config } = loadConfig(file, {});
    expect(config.cloud.url).toBe("https://api.givenergy.cloud/v1");
    expect(config.cloud.token).toBe("paste the API token from the portal here");
    expect(config.poll.meter).toBe(300_000);
  });

  it("reads the design's example file, with !secret from secrets.yaml and durations", () => {
    const file = configFile(
      [
        "cloud:",
        "  url: http://127.0.0.1:8787/v1",
        "  token: !secret cloud_token",
        "poll:",
        "  inverter: 2m",
        "  ev_charger: 15s",
      ].join("\n"),
      'cloud_token: "abc.def"\n',
    );
    const { config } = loadConfig(file, {});
    expect(config.cloud.token).toBe("abc.def");
    expect(config.poll.inverter).toBe(120_000);
    expect(config.poll.ev_charger).toBe(15_000);
  });

  it("lets ENERGY2MQTT_<SECTION>_<KEY> override the file, numbers included", () => {
    const file = configFile("mqtt:\n  url: mqtt://broker:1883\n");
    const { config } = loadConfig(file, {
      ENERGY2MQTT_MQTT_URL: "mqtt://other:1884",
      ENERGY2MQTT_CLOUD_REQUESTS_PER_MINUTE: "120",
      ENERGY2MQTT_CLOUD_TOKEN: "12345",
      ENERGY2MQTT_MQTT_BASE_TOPIC: "house",
    });
    expect(config.mqtt.url).toBe("mqtt://other:1884");
    expect(config.cloud.requests_per_minute).toBe(120);
    expect(config.cloud.token).toBe("12345");
    expect(config.mqtt.base_topic).toBe("house");
  });

  it("overrides top-level keys, including those with an underscore (ENERGY2MQTT_DRY_RUN)", () => {
    const file = configFile("rules: rules.yaml\n");
    const { config } = loadConfig(file, { ENERGY2MQTT_DRY_RUN: "true", ENERGY2MQTT_RULES: "other.yaml" });
    expect(config.dry_run).toBe(true);
    expect(config.rules).toBe("other.yaml");
  });

  it("names file, line and key for a bad value, and says what is allowed", () => {
    const file = configFile("cloud:\n  url: http://x/v1\n\nmqtt:\n  url: http://broker\n");
    const [problem] = problemsOf(() => loadConfig(file, {}));
    expect(problem).toBe(`${file}:5: mqtt.url: must be a URL starting with mqtt:// or mqtts:// or ws:// or wss://`);
  });

  it("names an unknown key at its own line, not its section's", () => {
    const file = configFile("poll:\n  inverter: 60s\n  inverterr: 30s\n");
    const [problem] = problemsOf(() => loadConfig(file, {}));
    expect(problem).toContain(`${file}:3: poll.inverterr: unknown key "inverterr"`);
  });

  it("names each unknown key deep in a section at its own line", () => {
    const file = configFile(
      [
        "store:",
        "  path: e2m.db",
        "  retention:",
        "    inverter.point:",
        "      keep: 90d",
        "      kep: 30d",
        "mqtt:",
        "  base_topic: house",
        "  passwd: x",
        "  user: me",
      ].join("\n"),
    );
    const problems = problemsOf(() => loadConfig(file, {}));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`${file}:6: store.retention.inverter.point.kep: unknown key "kep"`),
        expect.stringContaining(`${file}:9: mqtt.passwd: unknown key "passwd"`),
        expect.stringContaining(`${file}:10: mqtt.user: unknown key "user"`),
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it("rejects a malformed duration with the format to use", () => {
    const file = configFile("poll:\n  inverter: soon\n");
    const [problem] = problemsOf(() => loadConfig(file, {}));
    expect(problem).toMatch(/:2: poll\.inverter: "soon" is not a duration: use a number with ms, s, m or h/);
  });

  it("refuses poll durations out of bounds (zero, negative, beyond a day) with file, line, key and the range", () => {
    for (const [text, shown] of [
      ["0s", "0s"],
      ["-5", "-5s"],
      ["99999999h", "99999999h"],
      ["500ms", "500ms"],
    ] as const) {
      const file = configFile(`cloud:\n  page_size: 50\npoll:\n  meter: 5m\n  inverter: ${text}\n`);
      const problems = problemsOf(() => loadConfig(file, {}));
      expect(problems, text).toEqual([
        `${file}:5: poll.inverter: ${shown} is out of range: use a duration from 1s to 24h, e.g. 1m`,
      ]);
    }
  });

  it("bounds the device-list refresh to a week and a request's timeout to 10 minutes", () => {
    const file = configFile("poll:\n  inventory: 8d\ncloud:\n  timeout: 0s\n".replace("8d", "200h"));
    expect(problemsOf(() => loadConfig(file, {}))).toEqual([
      `${file}:4: cloud.timeout: 0s is out of range: use a duration from 1s to 10m, e.g. 30s`,
      `${file}:2: poll.inventory: 200h is out of range: use a duration from 1s to 168h, e.g. 30m`,
    ]);
    const fine = configFile("poll:\n  inventory: 168h\n  inverter: 24h\n  ev_charger: 1s\ncloud:\n  timeout: 10m\n");
    expect(loadConfig(fine, {}).config.poll).toMatchObject({
      inventory: 168 * 3_600_000,
      inverter: 24 * 3_600_000,
      ev_charger: 1000,
    });
  });

  it("names the environment variable for an out-of-range poll override", () => {
    const [problem] = problemsOf(() => loadConfig(undefined, { ENERGY2MQTT_POLL_METER: "0s" }));
    expect(problem).toBe(
      "environment ENERGY2MQTT_POLL_METER: poll.meter: 0s is out of range: use a duration from 1s to 24h, e.g. 5m",
    );
  });

  it("reports a missing secret at its line", () => {
    const file = configFile("cloud:\n  token: !secret nope\n", "other: 1\n");
    const [problem] = problemsOf(() => loadConfig(file, {}));
    expect(problem).toMatch(/:2:\d+: secret "nope" is not defined in .*secrets\.yaml/);
  });

  it("reports broken YAML with its line", () => {
    const file = configFile("cloud:\n  url: [unclosed\n");
    const [problem] = problemsOf(() => loadConfig(file, {}));
    expect(problem).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:\\d+:\\d+: `));
  });

  it("names the environment variable when an override is bad", () => {
    const [problem] = problemsOf(() => loadConfig(undefined, { ENERGY2MQTT_CLOUD_REQUESTS_PER_MINUTE: "lots" }));
    expect(problem).toMatch(/^environment ENERGY2MQTT_CLOUD_REQUESTS_PER_MINUTE: cloud\.requests_per_minute: /);
  });

  it("says when the file does not exist", () => {
    const [problem] = problemsOf(() => loadConfig("/nonexistent/energy2mqtt.yaml", {}));
    expect(problem).toBe("/nonexistent/energy2mqtt.yaml: file not found");
  });
});

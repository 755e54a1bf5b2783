import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { configFile, problemsOf } from "./helpers.js";

const load = (yaml: string) => loadConfig(configFile(yaml), {}).config;
const problems = (yaml: string) => problemsOf(() => loadConfig(configFile(yaml), {}));

describe("the ocpp: block", () => {
  it("is off by default, on 127.0.0.1:9000, accepting any tag, with a 60 s heartbeat", () => {
    expect(load("").ocpp).toEqual({
      enabled: false,
      host: "127.0.0.1",
      port: 9000,
      charge_points: [],
      authorisation: { policy: "accept_all", id_tags: [] },
      heartbeat: 60_000,
    });
  });

  it("reads charge points, a tag list, TLS files and the heartbeat as a duration", () => {
    const ocpp = load(
      [
        "ocpp:",
        "  enabled: true",
        "  host: 0.0.0.0",
        "  port: 9443",
        "  charge_points:",
        "    - { id: garage-wallbox, password: long-enough-secret }",
        "  authorisation:",
        "    policy: id_tags",
        "    id_tags: [04A1B2C3D4, APP-USER-1]",
        "  tls: { cert_file: ocpp.crt, key_file: ocpp.key }",
        "  heartbeat: 5m",
      ].join("\n"),
    ).ocpp;
    expect(ocpp).toEqual({
      enabled: true,
      host: "0.0.0.0",
      port: 9443,
      charge_points: [{ id: "garage-wallbox", password: "long-enough-secret" }],
      authorisation: { policy: "id_tags", id_tags: ["04A1B2C3D4", "APP-USER-1"] },
      tls: { cert_file: "ocpp.crt", key_file: "ocpp.key" },
      heartbeat: 300_000,
    });
  });

  it("lets the environment switch it on", () => {
    const file = configFile("ocpp:\n  charge_points: [{ id: CP1, password: long-enough-secret }]\n");
    expect(loadConfig(file, { ENERGY2MQTT_OCPP_ENABLED: "true" }).config.ocpp.enabled).toBe(true);
  });

  it("says what to fix in a bad block", () => {
    expect(problems("ocpp:\n  enabled: true\n")).toEqual([
      expect.stringMatching(/ocpp\.charge_points.*no charge point is listed: add charge_points: \[\{ id: /),
    ]);
    expect(problems("ocpp:\n  charge_points: [{ id: CP1, password: short }]\n")).toEqual([
      expect.stringMatching(/ocpp\.charge_points\.0\.password.*at least 8 characters/),
    ]);
    expect(problems("ocpp:\n  charge_points: [{ id: 'has space', password: long-enough-secret }]\n")).toEqual([
      expect.stringMatching(/ocpp\.charge_points\.0\.id.*1 to 48 letters, digits/),
    ]);
    expect(
      problems(
        "ocpp:\n  charge_points:\n    - { id: CP1, password: long-enough-secret }\n    - { id: CP1, password: another-secret }\n",
      ),
    ).toEqual([expect.stringMatching(/ocpp\.charge_points\.1\.id.*CP1 is listed twice/)]);
    expect(problems("ocpp:\n  authorisation: { policy: id_tags }\n")).toEqual([
      expect.stringMatching(/ocpp\.authorisation\.id_tags.*set policy: accept_all/),
    ]);
    expect(problems("ocpp:\n  authorisation: { policy: whitelist }\n")).toEqual([
      expect.stringMatching(/ocpp\.authorisation\.policy.*must be accept_all or id_tags/),
    ]);
    expect(problems("ocpp:\n  authorisation: { id_tags: [ABCDEFGHIJKLMNOPQRSTU] }\n")).toEqual([
      expect.stringMatching(/ocpp\.authorisation\.id_tags\.0.*at most 20 characters/),
    ]);
    expect(problems("ocpp:\n  tls: { cert_file: ocpp.crt }\n")).toEqual([
      expect.stringMatching(/ocpp\.tls\.key_file: TLS needs both files: set key_file/),
    ]);
    expect(problems("ocpp:\n  heartbeat: 1s\n")).toEqual([expect.stringMatching(/ocpp\.heartbeat/)]);
  });
});

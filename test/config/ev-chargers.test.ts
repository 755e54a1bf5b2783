import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { configFile, problemsOf } from "./helpers.js";

const load = (yaml: string) => loadConfig(configFile(yaml), {}).config;
const problems = (yaml: string) => problemsOf(() => loadConfig(configFile(yaml), {}));
const LOCAL = "source: local\nlocal: [{ host: 127.0.0.1 }]\n";

describe("the ev_chargers: block", () => {
  it("is empty by default: no charger is read over Modbus unless configured", () => {
    expect(load("").ev_chargers).toEqual([]);
  });

  it("reads a charger's Modbus link with port 502 and unit 1 unless given, and its uuid and alias", () => {
    const { ev_chargers } = load(
      `${LOCAL}ev_chargers:\n  - { serial: EVC1, uuid: 3f2c-9a4e, alias: Driveway, modbus: { host: 192.0.2.40 } }\n`,
    );
    expect(ev_chargers).toEqual([
      { serial: "EVC1", uuid: "3f2c-9a4e", alias: "Driveway", modbus: { host: "192.0.2.40", port: 502, unit_id: 1 } },
    ]);
  });

  it("says what is wrong: no host, a charger twice, a local charger with no path, Modbus under source: cloud", () => {
    expect(problems(`${LOCAL}ev_chargers: [{ serial: EVC1, modbus: { port: 502 } }]\n`)).toEqual([
      expect.stringMatching(/ev_chargers\.0\.modbus\.host/),
    ]);
    expect(
      problems(
        `${LOCAL}ev_chargers:\n  - { serial: EVC1, modbus: { host: a } }\n  - { serial: evc1, modbus: { host: b } }\n`,
      ),
    ).toEqual([expect.stringMatching(/ev_chargers\.1\.serial.*evc1 is listed twice/)]);
    expect(problems(`${LOCAL}ev_chargers: [{ serial: EVC1, uuid: u-1 }]\n`)).toEqual([
      expect.stringMatching(/ev_chargers\.0.*EVC1 needs a path of its own/),
    ]);
    // Named by an enabled charge point, OCPP is its path.
    const ocpp =
      "ocpp:\n  enabled: true\n  charge_points: [{ id: CP1, password: long-enough-secret, charger: EVC1 }]\n";
    expect(load(`${LOCAL}${ocpp}ev_chargers: [{ serial: EVC1, uuid: u-1 }]\n`).ev_chargers).toHaveLength(1);
    expect(problems("ev_chargers: [{ serial: EVC1, modbus: { host: a } }]\n")).toEqual([
      expect.stringMatching(/ev_chargers\.0\.modbus.*set source: local or auto/),
    ]);
  });
});

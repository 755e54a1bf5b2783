import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measurandName, normalised } from "../../../src/cloud/index.js";
import { observedIn } from "../../../src/rules/house/live-input.js";
import { chargerMeterSamplesOf, chargerMeterValues } from "../../../src/sources/cloud/ev-readings.js";
import { isoSeconds, newest } from "../../../src/time/index.js";
import { CHARGER, type Env, MINUTE, startEnv } from "./helpers.js";

// The optimise-car evening: the demo car comes home and must have 7 kWh by 07:30 London time.
const START = Date.UTC(2025, 5, 15, 16, 0);
const UNTIL = Date.UTC(2025, 5, 16, 6, 0);
const RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 9.5, charge_kw: 3 }",
  // The plan's power is not what the car draws: what it was given is read from the charger's register.
  "ev: { charge_kw: 11 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "  export: { type: fixed, price: 0.05 }",
  "rules:",
  "  - name: optimiser",
  '    when: { optimise: { reserve_soc: 10, car: { kwh: 7, by: "07:30" } } }',
];

describe("the car's delivered energy from the charger's import register", () => {
  let env: Env;
  let run: Awaited<ReturnType<Env["startRuntime"]>>;
  const registers: { at: number; kwh: number }[] = [];

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES });
    await env.checker.evChargers.sendCommand(CHARGER, "set-plug-and-go", { enabled: false });
    run = await env.startRuntime({ firstRound: { soc: 20 } });
    /** The charger's status and its newest meter record, through the client and observedIn as telemetry feeds them. */
    const seeCharger = async () => {
      await run.pushCharger((await env.checker.evChargers.get(CHARGER)).status ?? "Available");
      const at = env.now();
      const records = await env.checker.evChargers
        .meterData(CHARGER, {
          start_time: isoSeconds(at - 15 * MINUTE),
          end_time: isoSeconds(at + MINUTE),
          measurands: [4],
          meter_ids: [0],
        })
        .all();
      const latest = newest(records, (record) => record.timestamp, "UTC");
      const seen = observedIn({
        kind: "ev.meter",
        uuid: CHARGER,
        at,
        records: chargerMeterSamplesOf(records, "UTC"),
        values: latest && chargerMeterValues(latest),
        measuredAt: latest && Date.parse(latest.timestamp),
      });
      if (seen?.kind === "charger-meter") registers.push({ at: seen.at, kwh: seen.importKwh });
      await run.push(seen);
    };
    await seeCharger();
    for (let at = START + 30 * MINUTE; at <= UNTIL; at += 30 * MINUTE) {
      await run.advanceTo(at);
      await seeCharger();
    }
  }, 120_000);

  afterAll(async () => {
    await run?.runtime.stop();
    await env?.stop();
  });

  it("reads the simulator's register in kWh through the client", () => {
    expect(registers.length).toBeGreaterThan(20);
    const rises = registers.slice(1).map((reading, index) => reading.kwh - (registers[index]?.kwh ?? 0));
    expect(rises.every((rise) => rise >= 0)).toBe(true);
    expect(Math.max(...rises)).toBeGreaterThan(0);
  });

  it("counts what the register rose since the previous deadline, not the plan's 11 kW times the time charged", async () => {
    const from = UNTIL + 1.5 * 60 * MINUTE - 24 * 60 * MINUTE;
    const inPeriod = registers.filter((reading) => reading.at >= from);
    const metered = (inPeriod.at(-1)?.kwh ?? 0) - (inPeriod[0]?.kwh ?? 0);
    const delivered = run.runtime.carState()?.deliveredKwh.optimiser;
    expect(metered).toBeGreaterThan(0);
    // Charging began after the first reading and had stopped by the last: the register is the whole of it.
    expect(delivered).toBeCloseTo(metered, 6);
    const charged = registers.filter((reading, index) => index > 0 && reading.kwh > (registers[index - 1]?.kwh ?? 0));
    expect(delivered).toBeLessThan(charged.length * 0.5 * 11);
  });

  it("the register's unit is the meter's: an energy register in Wh is read as kWh", async () => {
    const [record] = await env.checker.evChargers
      .meterData(CHARGER, {
        start_time: isoSeconds(UNTIL - 10 * MINUTE),
        end_time: isoSeconds(UNTIL),
        measurands: [4],
        meter_ids: [0],
      })
      .all();
    const register = record?.measurements.find((m) => measurandName(m.measurand) === "Energy.Active.Import.Register");
    expect(register).toBeDefined();
    if (register) expect(registers.map((reading) => reading.kwh)).toContain(normalised(register).value);
  });
});

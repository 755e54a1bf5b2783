import { describe, expect, it } from "vitest";
import { demoHouseScenario, World } from "../../../src/simulator/index.js";
import { loadScenario } from "../../../src/simulator/scenario/load.js";

/** Midnight starting a Monday in November, GMT: the demo house's local midnight. */
const MIDNIGHT = Date.parse("2026-11-16T00:00:00Z");
const HOUR = 3_600_000;

/** The battery's SoC each hour of the day from MIDNIGHT, as the simulated house integrates it. */
function socByHour(world: World, serial: string): number[] {
  const inverter = world.inverters.get(serial);
  if (!inverter) throw new Error(`no inverter ${serial}`);
  const out: number[] = [];
  for (let hour = 0; hour <= 24; hour++) {
    inverter.model.advanceTo(MIDNIGHT + hour * HOUR);
    out.push(inverter.model.socPercent());
  }
  return out;
}

describe("the daemon's demo house", () => {
  it("is the demo scenario commissioned the given days before the start", () => {
    const scenario = demoHouseScenario(MIDNIGHT + 10 * HOUR, 28);
    const builtin = loadScenario("demo");
    const serials = (s: typeof scenario) =>
      s.accounts.flatMap((a) => [
        ...a.devices.map((d) => d.inverter.serial),
        ...a.ems.flatMap((e) => e.inverters.map((i) => i.serial)),
      ]);
    expect(serials(scenario)).toEqual(serials(builtin));
    const dates = scenario.accounts.flatMap((a) => [
      ...a.devices.map((d) => d.inverter.commission_date),
      ...a.ems.flatMap((e) => [e.commission_date, ...e.inverters.map((i) => i.commission_date)]),
      ...a.ev_chargers.map((c) => c.commission_date),
    ]);
    expect(new Set(dates)).toEqual(new Set(["2026-10-19"]));
  });

  it("charges overnight as installed and uses it by day, where the factory settings leave it at the floor", () => {
    const demo = new World(demoHouseScenario(MIDNIGHT, 28), 1, MIDNIGHT);
    const soc = socByHour(demo, "SD2024G001");
    // The installer's AC charge, 00:30-05:30: full by 05:30 ...
    expect(soc[6]).toBeGreaterThan(95);
    // ... then the house and the evening draw it down.
    expect(soc[23]).toBeLessThan((soc[6] ?? 0) - 30);
    // The AC-coupled inverter has no PV of its own: the night charge is all that moves it.
    const coupled = socByHour(demo, "SE2024G101");
    expect(Math.max(...coupled) - Math.min(...coupled)).toBeGreaterThan(50);

    // The same house with the factory's settings: no timed charge, the coupled battery never moves.
    const factory = new World(loadScenario("demo"), 1, MIDNIGHT);
    const still = socByHour(factory, "SE2024G101");
    expect(Math.max(...still) - Math.min(...still)).toBeLessThan(1);
  });

  it("refuses an installer's setting the inverter would refuse", () => {
    const scenario = demoHouseScenario(MIDNIGHT, 3);
    const account = scenario.accounts[0];
    const device = account?.devices[0];
    if (!account || !device) throw new Error("the demo has a house");
    const bad = {
      ...scenario,
      accounts: scenario.accounts.map((one) =>
        one === account
          ? { ...account, devices: [{ ...device, inverter: { ...device.inverter, settings: { "71": 2 } } }] }
          : one,
      ),
    };
    expect(() => new World(bad, 1, MIDNIGHT)).toThrow(/SD2024G001: setting 71/);
  });
});

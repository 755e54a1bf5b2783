import { addDays, dayOf } from "../../time/index.js";
import { demoScenario } from "./builtin.js";
import { type Scenario, type ScenarioInput, scenarioSchema } from "./schema.js";

/**
 * An installer's settings for a house on a cheap-night tariff (Octopus Go's 00:30-05:30): AC
 * charge to full in the cheap hours, Eco mode the rest of the day. Left at the factory's (no
 * timed charge) a November house drains its battery to the 4% floor by the evening and holds it
 * there until the sun is up.
 */
const OVERNIGHT_CHARGE: Readonly<Record<string, boolean | number | string>> = {
  "66": true, // AC Charge Enable
  "64": "00:30", // AC Charge 1 Start Time
  "65": "05:30", // AC Charge 1 End Time
  "101": 100, // AC Charge 1 Upper SOC % Limit
};

/**
 * The demo scenario as the daemon runs it when no cloud is configured: commissioned `days` before
 * `start`, every inverter charging overnight as installed. The simulator integrates each inverter
 * from its commissioning, minute by minute, at its first answer: from the built-in demo's 2024
 * dates that was about 2,900 house-days (3 to 12 s before the daemon could list the devices,
 * and three more every day), where `days` of history are what the demo needs.
 */
export function demoHouseScenario(start: number, days: number): Scenario {
  const input = demoScenario();
  const timezone = input.timezone ?? "Europe/London";
  const commission_date = addDays(dayOf(start, timezone), -days);
  const inverter = <T extends object>(one: T) => ({ ...one, commission_date, settings: OVERNIGHT_CHARGE });
  const demo: ScenarioInput = {
    ...input,
    accounts: input.accounts.map((account) => ({
      ...account,
      devices: account.devices?.map((device) => ({ ...device, inverter: inverter(device.inverter) })),
      ems: account.ems?.map((ems) => ({ ...ems, commission_date, inverters: ems.inverters.map(inverter) })),
      ev_chargers: account.ev_chargers?.map((charger) => ({ ...charger, commission_date })),
    })),
  };
  return scenarioSchema.parse(demo);
}

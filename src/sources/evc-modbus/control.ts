import type { ChargerWriteOutcome } from "../../evc/index.js";
import type { ChargerAnswer, ChargerCommand, ChargerControl } from "../charger-ports.js";
import { modbusStatusValues } from "./readings.js";
import type { ModbusChargers } from "./resources.js";

/** What the charger's Modbus registers can be told (its allowlist, evc/modbus-map.ts); unlock and restart are OCPP's or the cloud's. */
const OVER_MODBUS: ReadonlySet<ChargerCommand["kind"]> = new Set(["start", "stop", "current-limit"]);

/**
 * A write the charger took and then went back on is not done: it is said so, with why the daemon
 * cannot do better over this path.
 */
function answerOf(outcome: ChargerWriteOutcome, what: string): ChargerAnswer {
  if (outcome.outcome !== "done") return { ...outcome, path: "Modbus" };
  if (outcome.reverted)
    return {
      outcome: "refused",
      reason: `${what}: ${outcome.message ?? "the charger went back on it"} (a charger reverts writes over Modbus local control; OCPP is the reliable path)`,
      path: "Modbus",
    };
  return { outcome: "done", value: undefined, message: `${what}: the charger holds it, read back`, path: "Modbus" };
}

/**
 * An EV charger's commands over Modbus TCP (issue 37), for a charger with local control enabled
 * whose last read answered: start, stop and the current limit, each written only through the
 * client's allowlist and read back.
 */
export function modbusChargerControl(chargers: ModbusChargers): ChargerControl {
  return {
    carries: (uuid, kind) => (kind === undefined || OVER_MODBUS.has(kind)) && chargers.carries(uuid),
    status(uuid) {
      const reading = chargers.lastReading(uuid);
      return reading && modbusStatusValues(reading).status?.toString();
    },
    currentLimit: (uuid) => chargers.lastReading(uuid)?.currentLimitA,
    async command(uuid, command) {
      const client = chargers.clientOf(uuid);
      if (!client)
        return { outcome: "refused", reason: `charger ${uuid} has no Modbus link configured`, path: "Modbus" };
      try {
        switch (command.kind) {
          case "start":
            return answerOf(await client.start(), "the start");
          case "stop":
            return answerOf(await client.stop(), "the stop");
          case "current-limit":
            return answerOf(await client.setCurrentLimit(command.amps), `a limit of ${command.amps} A`);
          case "unlock":
          case "restart":
          case "availability":
          case "trigger":
            return {
              outcome: "refused",
              reason: `${command.kind} is not a Modbus register the daemon writes`,
              path: "Modbus",
            };
        }
      } finally {
        chargers.written(uuid);
      }
    },
  };
}

import type { Config } from "../config/index.js";
import type { EvChargerDevice } from "../sources/index.js";

type Commands = EvChargerDevice["commands"];
const OVER_MODBUS: Commands = ["start-charge", "stop-charge", "adjust-charge-power-limit"];
const OVER_OCPP: Commands = [...OVER_MODBUS, "unlock-connector", "restart-charger"];

/**
 * The EV chargers of a house under `source: local`, where no cloud lists them: those on a path of
 * their own, named by the configuration (an OCPP charge point's `charger`, an `ev_chargers` entry
 * with `modbus`), with the uuid the cloud gave them when it is configured (so their entities stay
 * the same), the serial otherwise. Their commands are what their paths carry.
 */
export function configuredChargers(config: Config): EvChargerDevice[] {
  // By upper-case serial, as the configuration spells it.
  const onOcpp = new Map(
    config.ocpp.enabled
      ? config.ocpp.charge_points.flatMap((cp) => (cp.charger ? [[cp.charger.toUpperCase(), cp.charger] as const] : []))
      : [],
  );
  const entries = new Map(config.ev_chargers.map((entry) => [entry.serial.toUpperCase(), entry]));
  const onModbus = [...entries.keys()].filter((key) => entries.get(key)?.modbus);
  return [...new Set([...onOcpp.keys(), ...onModbus])].map((key) => {
    const entry = entries.get(key);
    const serial = entry?.serial ?? onOcpp.get(key) ?? key;
    return {
      kind: "ev_charger",
      uuid: entry?.uuid ?? serial,
      serial,
      alias: entry?.alias ?? serial,
      type: "",
      commands: onOcpp.has(key) ? OVER_OCPP : OVER_MODBUS,
    };
  });
}

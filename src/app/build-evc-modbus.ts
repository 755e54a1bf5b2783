import type { Config } from "../config/index.js";
import { modbusCharger } from "../evc/index.js";
import type { Logger } from "../log/log.js";
import { ModbusChargers } from "../sources/index.js";
import type { Clock } from "../time/index.js";
import type { Lifecycle } from "./lifecycle.js";

/**
 * The EV chargers with a `modbus:` link (`ev_chargers[]`), under `source: local` or `auto`: their
 * registers polled at `poll.ev_charger`, their commands written over it when OCPP does not carry
 * them. Nothing is connected before the first poll.
 */
export function startEvcModbus(options: {
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly life: Lifecycle;
}): ModbusChargers | undefined {
  const { config, clock, logger, life } = options;
  if (config.source === "cloud") return undefined;
  const log = logger.child({ part: "evc-modbus" });
  const links = config.ev_chargers.flatMap((charger) => {
    const modbus = charger.modbus;
    if (!modbus) return [];
    log.info(
      { serial: charger.serial, host: modbus.host, port: modbus.port },
      `EV charger ${charger.serial} over Modbus TCP at ${modbus.host}:${modbus.port} (its writes are read back; OCPP is the reliable path when its charge point is connected)`,
    );
    return [
      {
        serial: charger.serial,
        client: modbusCharger({ host: modbus.host, port: modbus.port, unitId: modbus.unit_id, clock, logger: log }),
      },
    ];
  });
  if (links.length === 0) return undefined;
  const chargers = new ModbusChargers(links, { periodMs: config.poll.ev_charger, now: () => clock.now() });
  life.onStop(() => chargers.close());
  return chargers;
}

import type { Clock } from "../../time/index.js";
import { EvcModbusServer } from "./modbus-server.js";
import { OcppChargePoint } from "./ocpp-charge-point.js";
import type { LocalCharger } from "./types.js";

/** The simulator's options for the chargers' local links (SimulatorOptions.ocpp, evcModbusPort). */
export interface EvcOcppOptions {
  /** The central system, e.g. ws://127.0.0.1:9000/ocpp (each charge point's id is appended). */
  readonly url: string;
  /** One charge point per entry: the charger with `uuid`, or else the scenario's charger at the same position. */
  readonly chargePoints: readonly { readonly uuid?: string; readonly id: string; readonly password: string }[];
  /** Simulated seconds between MeterValues during a transaction; 60 by default. */
  readonly meterValueIntervalS?: number;
  /** Real-time reconnect back-off, ms. */
  readonly backoff?: { readonly initialDelayMs: number; readonly maxDelayMs: number };
}

export interface EvcLinkOptions {
  readonly host: string;
  readonly ocpp?: EvcOcppOptions;
  /** Each charger's Modbus TCP server, from this port on (0: free ports); left out, none. */
  readonly modbusPort?: number;
}

/** The OCPP charge points and Modbus servers of the scenario's chargers, and the admin API's way to them. */
export class EvcLinks {
  readonly chargePoints: OcppChargePoint[] = [];
  readonly modbus: EvcModbusServer[] = [];

  static async start(
    chargers: readonly LocalCharger[],
    clock: Clock,
    options: EvcLinkOptions,
  ): Promise<EvcLinks | undefined> {
    if (!options.ocpp && options.modbusPort === undefined) return undefined;
    const links = new EvcLinks();
    try {
      if (options.modbusPort !== undefined) {
        for (const [i, charger] of chargers.entries()) {
          const server = new EvcModbusServer({
            charger,
            clock,
            host: options.host,
            port: options.modbusPort === 0 ? 0 : options.modbusPort + i,
          });
          await server.start();
          links.modbus.push(server);
        }
      }
      const ocpp = options.ocpp;
      for (const [i, entry] of (ocpp?.chargePoints ?? []).entries()) {
        if (!ocpp) break;
        const charger = entry.uuid
          ? chargers.find((c) => c.spec.uuid.toLowerCase() === entry.uuid?.toLowerCase())
          : chargers[i];
        if (!charger) throw new Error(`no EV charger ${entry.uuid ?? `#${i + 1}`} in the scenario for ${entry.id}`);
        const point = new OcppChargePoint({
          url: ocpp.url,
          id: entry.id,
          password: entry.password,
          charger,
          clock,
          ...(ocpp.meterValueIntervalS === undefined ? {} : { meterValueIntervalS: ocpp.meterValueIntervalS }),
          ...(ocpp.backoff === undefined ? {} : { backoff: ocpp.backoff }),
        });
        point.start();
        links.chargePoints.push(point);
      }
    } catch (error) {
      await links.close();
      throw error;
    }
    return links;
  }

  chargePoint(id: string): OcppChargePoint | undefined {
    return this.chargePoints.find((p) => p.id === id);
  }

  modbusOf(uuid: string): EvcModbusServer | undefined {
    return this.modbus.find((s) => s.uuid.toLowerCase() === uuid.toLowerCase());
  }

  async close(): Promise<void> {
    await Promise.all([...this.chargePoints.map((p) => p.close()), ...this.modbus.map((s) => s.close())]);
  }
}

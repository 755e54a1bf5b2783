import { filter, Subject } from "rxjs";
import type { ChargerReading, ModbusCharger } from "../../evc/index.js";
import type { DeviceId } from "../../vocabulary/device-id.js";
import type { Fetched } from "../fetched.js";
import { deviceId, type EvChargerDevice, type Inventory } from "../inventory.js";
import type { Resource } from "../resource.js";
import { modbusMeterValues, modbusStatusValues } from "./readings.js";
import { ModbusSessions } from "./sessions.js";

/** A charger with local control enabled, and the Modbus client that reaches it. */
export interface ModbusChargerLink {
  /** The charger's serial: what pairs it with the inventory's charger (never a name). */
  readonly serial: string;
  readonly client: ModbusCharger;
}

export class ModbusNotReadError extends Error {
  override readonly name = "ModbusNotReadError";
}

interface Latest {
  readonly reading: ChargerReading;
  readonly at: number;
}

/**
 * The Modbus path to the EV chargers as resources like every path's: each status poll reads the
 * registers once; the meter and the session are taken from that reading (polled on its news), so
 * the charger is asked one sweep per status poll. A charger whose last read failed is not carried:
 * its commands go by another path.
 */
export class ModbusChargers {
  private readonly latest = new Map<string, Latest>();
  private readonly failed = new Set<string>();
  private readonly sessions = new Map<string, ModbusSessions>();
  private readonly byUuid = new Map<string, ModbusChargerLink>();
  private readonly idBySerial = new Map<string, DeviceId>();
  /** After each read, by upper-case serial: what the meter and the session are polled on. */
  private readonly read$ = new Subject<{ readonly serial: string; readonly sessionChanged: boolean }>();
  /** A write was made: the status is read again at once. */
  private readonly written$ = new Subject<string>();

  constructor(
    private readonly links: readonly ModbusChargerLink[],
    private readonly options: { readonly periodMs: number; readonly now: () => number },
  ) {}

  resources(inventory: Inventory): Resource[] {
    return this.links.flatMap((link) => {
      const charger = inventory.evChargers.find((one) => one.serial.toUpperCase() === link.serial.toUpperCase());
      if (!charger) return [];
      this.byUuid.set(charger.uuid, link);
      this.idBySerial.set(link.serial.toUpperCase(), deviceId(charger));
      return this.chargerResources(charger, link);
    });
  }

  private chargerResources(charger: EvChargerDevice, link: ModbusChargerLink): Resource[] {
    const key = link.serial.toUpperCase();
    const { uuid } = charger;
    const devices = [deviceId(charger)];
    const where = `(Modbus ${link.serial})`;
    const readNow = async (): Promise<Latest> => {
      try {
        const latest = { reading: await link.client.read(), at: this.options.now() };
        this.failed.delete(key);
        this.latest.set(key, latest);
        const sessions = this.sessions.get(key) ?? new ModbusSessions();
        this.sessions.set(key, sessions);
        const { changed } = sessions.update(latest.reading, latest.at);
        this.read$.next({ serial: key, sessionChanged: changed });
        return latest;
      } catch (error) {
        this.failed.add(key);
        throw error;
      }
    };
    const lastRead = (): Latest => {
      const latest = this.latest.get(key);
      if (!latest || this.failed.has(key))
        throw new ModbusNotReadError(`EV charger ${link.serial} did not answer its last Modbus read`);
      return latest;
    };
    const ofThis = this.read$.pipe(filter((news) => news.serial === key));
    return [
      {
        name: `ev.status ${charger.serial} ${where}`,
        of: { kind: "ev.status", serial: charger.serial },
        devices,
        periodMs: this.options.periodMs,
        triggers: this.written$.pipe(filter((serial) => serial === key)),
        async poll() {
          const { reading, at } = await readNow();
          return { fetched: { kind: "ev.status", uuid, at, values: modbusStatusValues(reading) } };
        },
      },
      {
        name: `ev.meter ${charger.serial} ${where}`,
        of: { kind: "ev.meter", serial: charger.serial },
        devices,
        triggers: ofThis,
        poll: async () => {
          const { reading, at } = lastRead();
          const fetched: Fetched = {
            kind: "ev.meter",
            uuid,
            at,
            records: [],
            values: modbusMeterValues(reading),
            measuredAt: at,
          };
          return { fetched };
        },
      },
      {
        name: `ev.session ${charger.serial} ${where}`,
        of: { kind: "ev.session", serial: charger.serial },
        devices,
        triggers: ofThis.pipe(filter((news) => news.sessionChanged)),
        poll: async () => {
          const { at } = lastRead();
          const session = this.sessions.get(key)?.session;
          return { fetched: { kind: "ev.sessions", uuid, at, sessions: [], session } };
        },
      },
    ] satisfies Resource[];
  }

  /** The device id of a charger on Modbus, by its serial (its path is kept by serial, its entities by uuid). */
  deviceIdOfSerial(serial: string): DeviceId | undefined {
    return this.idBySerial.get(serial.toUpperCase());
  }

  /** The Modbus client of a charger (by uuid) with local control configured. */
  clientOf(uuid: string): ModbusCharger | undefined {
    return this.byUuid.get(uuid)?.client;
  }

  /** Whether the charger (by uuid) is on Modbus now: configured, and its last read answered. */
  carries(uuid: string): boolean {
    const link = this.byUuid.get(uuid);
    return link !== undefined && !this.failed.has(link.serial.toUpperCase());
  }

  /** The charger's registers as last read, for a charger this path carries now; undefined otherwise. */
  lastReading(uuid: string): ChargerReading | undefined {
    const link = this.byUuid.get(uuid);
    return link && this.carries(uuid) ? this.latest.get(link.serial.toUpperCase())?.reading : undefined;
  }

  /** After a write: its status (and so its meter and session) read again at once. */
  written(uuid: string): void {
    const link = this.byUuid.get(uuid);
    if (link) this.written$.next(link.serial.toUpperCase());
  }

  async close(): Promise<void> {
    this.read$.complete();
    this.written$.complete();
    await Promise.all(this.links.map((link) => link.client.close()));
  }
}

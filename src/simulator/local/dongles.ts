import type { Clock } from "../../time/index.js";
import type { World } from "../world/world.js";
import { type DongleBus, emsBus, gatewayBus, inverterBus } from "./bus.js";
import { SimDongle } from "./dongle.js";

export interface LocalOptions {
  readonly host?: string;
  /** The first dongle's port; the others follow, one each. 0 gives each a free port. */
  readonly firstPort: number;
  /**
   * One address per dongle, in order, all on `firstPort` (a LAN of dongles on one port, as real
   * ones are on 8899); `host` is then unused. Fewer addresses than dongles is an error.
   */
  readonly hosts?: readonly string[];
  /** Simulated ms a dongle takes to answer; 150 by default, as a real one roughly does. */
  readonly responseDelayMs?: number;
  /** Simulated ms between heartbeats; 60 s by default, as the captured EMS sends them. */
  readonly heartbeatMs?: number;
}

/** What `simulate` prints of each dongle. */
export interface DongleInfo {
  readonly dongleSerial: string;
  readonly deviceSerial: string;
  readonly kind: DongleBus["kind"];
  readonly model: string;
  readonly host: string;
  readonly port: number;
}

export interface LocalDongles {
  readonly dongles: readonly SimDongle[];
  info(): DongleInfo[];
  /** The dongle with this dongle or device serial, in any case. */
  find(serial: string): SimDongle | undefined;
  close(): Promise<void>;
}

/** One bus per inverter (an EMS's and a gateway's children included: each has its own dongle), EMS and gateway. */
export function busesOf(world: World): DongleBus[] {
  return [
    ...[...world.inverters.values()].map(inverterBus),
    ...[...world.ems.values()].map(emsBus),
    ...[...world.gateways.values()].map(gatewayBus),
  ];
}

/** Opens a dongle per inverter, EMS and gateway of the world, each on its own port. */
export async function startDongles(world: World, clock: Clock, options: LocalOptions): Promise<LocalDongles> {
  const buses = busesOf(world);
  const seen = new Set<string>();
  for (const bus of buses) {
    const key = bus.dongleSerial.toUpperCase();
    if (seen.has(key))
      throw new Error(`two dongles would share the serial ${bus.dongleSerial}: give them distinct serials`);
    seen.add(key);
  }
  const { hosts } = options;
  if (hosts && hosts.length < buses.length)
    throw new Error(`${buses.length} dongles need as many addresses, ${hosts.length} given: list one per dongle`);
  const dongles: SimDongle[] = [];
  try {
    for (const [index, bus] of buses.entries()) {
      const dongle = new SimDongle({
        bus,
        clock,
        host: hosts?.[index] ?? options.host ?? "127.0.0.1",
        port: hosts || options.firstPort === 0 ? options.firstPort : options.firstPort + index,
        responseDelayMs: options.responseDelayMs ?? 150,
        heartbeatMs: options.heartbeatMs ?? 60_000,
      });
      await dongle.listen();
      dongles.push(dongle);
    }
  } catch (error) {
    await Promise.all(dongles.map((dongle) => dongle.close()));
    throw error;
  }
  return {
    dongles,
    info: () =>
      dongles.map((dongle) => ({
        dongleSerial: dongle.bus.dongleSerial,
        deviceSerial: dongle.bus.deviceSerial,
        kind: dongle.bus.kind,
        model: dongle.bus.model,
        host: dongle.host,
        port: dongle.port,
      })),
    find: (serial) => {
      const wanted = serial.toUpperCase();
      return dongles.find(
        (dongle) =>
          dongle.bus.dongleSerial.toUpperCase() === wanted || dongle.bus.deviceSerial.toUpperCase() === wanted,
      );
    },
    close: async () => {
      await Promise.all(dongles.map((dongle) => dongle.close()));
    },
  };
}

import type { Clock } from "../../time/index.js";
import type { World } from "../world/world.js";
import { type ChainClock, type DongleChain, emsChain, gatewayChain, inverterChain } from "./device-chain.js";
import { DeviceClock, type DeviceClockBehaviour } from "./device-clock.js";
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
  /** How every inverter's and EMS's own clock behaves at start (device-clock.ts); right and fixed to the zone's winter or summer time by default. */
  readonly deviceClock?: DeviceClockBehaviour;
}

/** What `simulate` prints of each dongle. */
export interface DongleInfo {
  readonly dongleSerial: string;
  readonly deviceSerial: string;
  readonly kind: DongleChain["kind"];
  readonly model: string;
  readonly host: string;
  readonly port: number;
}

export interface LocalDongles {
  readonly dongles: readonly SimDongle[];
  info(): DongleInfo[];
  /** The dongle with this dongle or device serial, in any case. */
  find(serial: string): SimDongle | undefined;
  /** The own clock of the inverter or EMS with this serial, in any case. */
  clockOf(serial: string): DeviceClock | undefined;
  close(): Promise<void>;
}

/**
 * One chain per inverter (an EMS's and a gateway's children included: each has its own dongle), EMS and gateway.
 * With `clocks`, each inverter, EMS and gateway gets its own clock there (by serial, upper case), which its
 * registers show, its clock writes set, and an inverter's timed slots run by.
 */
export function chainsOf(
  world: World,
  clocks?: {
    readonly byId: Map<string, DeviceClock>;
    readonly clock: Clock;
    readonly behaviour?: DeviceClockBehaviour;
  },
): DongleChain[] {
  const chainClock = (serial: string): ChainClock | undefined => {
    if (!clocks) return undefined;
    const device = new DeviceClock(world.scenario.timezone, clocks.clock.now(), clocks.behaviour);
    clocks.byId.set(serial.toUpperCase(), device);
    return { device, now: () => clocks.clock.now() };
  };
  return [
    ...[...world.inverters.values()].map((record) => {
      const clock = chainClock(record.serial);
      if (clock) record.model.runSlotsBy((utcMs) => clock.device.minuteOfDay(utcMs));
      return inverterChain(record, clock);
    }),
    ...[...world.ems.values()].map((record) => emsChain(record, chainClock(record.serial))),
    ...[...world.gateways.values()].map((record) => gatewayChain(record, chainClock(record.serial))),
  ];
}

/** Opens a dongle per inverter, EMS and gateway of the world, each on its own port. */
export async function startDongles(world: World, clock: Clock, options: LocalOptions): Promise<LocalDongles> {
  const clocks = new Map<string, DeviceClock>();
  const chains = chainsOf(world, {
    byId: clocks,
    clock,
    ...(options.deviceClock ? { behaviour: options.deviceClock } : {}),
  });
  const seen = new Set<string>();
  for (const chain of chains) {
    const key = chain.dongleSerial.toUpperCase();
    if (seen.has(key))
      throw new Error(`two dongles would share the serial ${chain.dongleSerial}: give them distinct serials`);
    seen.add(key);
  }
  const { hosts } = options;
  if (hosts && hosts.length < chains.length)
    throw new Error(`${chains.length} dongles need as many addresses, ${hosts.length} given: list one per dongle`);
  const dongles: SimDongle[] = [];
  try {
    for (const [index, chain] of chains.entries()) {
      const dongle = new SimDongle({
        chain,
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
        dongleSerial: dongle.chain.dongleSerial,
        deviceSerial: dongle.chain.deviceSerial,
        kind: dongle.chain.kind,
        model: dongle.chain.model,
        host: dongle.host,
        port: dongle.port,
      })),
    find: (serial) => {
      const wanted = serial.toUpperCase();
      return dongles.find(
        (dongle) =>
          dongle.chain.dongleSerial.toUpperCase() === wanted || dongle.chain.deviceSerial.toUpperCase() === wanted,
      );
    },
    clockOf: (serial) => clocks.get(serial.toUpperCase()),
    close: async () => {
      await Promise.all(dongles.map((dongle) => dongle.close()));
    },
  };
}

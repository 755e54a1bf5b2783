import { type DecodedDevice, faultsOfState } from "../../local/index.js";
import { type DeviceId, deviceIdOf } from "../../vocabulary/device-id.js";
import type { Inventory } from "../inventory.js";
import type { PollConfig } from "../poll-config.js";
import type { Resource } from "../resource.js";
import { withClockDrift } from "./clock-drift.js";
import type { LocalDongle } from "./dongle.js";
import { LanFaultEvents } from "./fault-events.js";
import { inverterPointOf } from "./history-points.js";
import { TodayLoadGuard } from "./load-today.js";
import { counterValuesOf, emsValuesOf, liveValuesOf, toSecond } from "./readings.js";

export interface LocalResourceContext {
  /** Live polls' interval (the configuration's poll.local, 10 s by default: the dongle answers in a second, with no rate limit). */
  readonly liveMs: number;
  /**
   * The dongle a controller serial (inverter, gateway, EMS) answers on now, found again by serial
   * when its address moved; rejects when no address answers for it.
   */
  readonly dongleFor: (serial: string, signal?: AbortSignal) => Promise<LocalDongle>;
  /** The dongle paired with a controller serial now, without asking. */
  readonly dongleOf: (serial: string) => LocalDongle | undefined;
  /** The dongle that identified a controller serial at discovery (it has live resources), undefined for one the LAN never found. */
  readonly identified: (serial: string) => LocalDongle | undefined;
  readonly now: () => number;
  /** The house's zone, which the devices' clocks keep (the configuration's `timezone`). */
  readonly timezone: string;
}

const controllerOf = (devices: readonly DecodedDevice[], serial: string): DecodedDevice | undefined =>
  devices.find((device) => device.serial === serial && device.kind !== "battery module" && device.kind !== "battery");

/**
 * One live resource per dongle (an inverter's system data, or an EMS's rollup) and, for an
 * inverter, its energy counters as a data point every `poll.meter` and its faults, from the
 * registers the last live poll read (the counters are in the same banks), so history goes on
 * without the cloud.
 */
export function localResources(context: LocalResourceContext, inventory: Inventory, poll: PollConfig): Resource[] {
  const { liveMs } = context;
  const resources: Resource[] = [];
  for (const inverter of inventory.inverters) {
    const dongle = context.identified(inverter.serial);
    if (!dongle) continue;
    resources.push(...inverterResources(context, inverter.serial, dongle.where, { liveMs, countersMs: poll.meter }));
  }
  for (const ems of inventory.ems) {
    const dongle = context.identified(ems.serial);
    if (dongle) resources.push(emsResource(context, ems.serial, ems.inverterSerials, dongle.where, liveMs));
  }
  return resources;
}

/** The devices the dongle paired with `serial` decoded last, without asking; none while it answers for another. */
function heardOf(context: LocalResourceContext, serial: string): readonly DecodedDevice[] {
  const dongle = context.dongleOf(serial);
  return dongle && !dongle.answersForAnother && dongle.lastHeardAt !== undefined ? dongle.devices() : [];
}

function inverterResources(
  context: LocalResourceContext,
  serial: string,
  where: string,
  periods: { readonly liveMs: number; readonly countersMs: number },
): Resource[] {
  const { now } = context;
  const id = deviceIdOf(serial);
  let lastLive: number | undefined;
  const faultEvents = new LanFaultEvents();
  const todayLoad = new TodayLoadGuard();
  return [
    {
      name: `inverter.live ${serial} (LAN ${where})`,
      of: { kind: "inverter.live", serial },
      devices: [id],
      periodMs: periods.liveMs,
      async poll(signal) {
        const dongle = await context.dongleFor(serial, signal);
        const devices = await dongle.poll(signal, lastLive);
        const controller = devices && controllerOf(devices, serial);
        if (!controller) return {};
        lastLive = dongle.lastHeardAt;
        const at = now();
        const clock = { atMs: at, heardAt: dongle.clockHeardAt, timeZone: context.timezone };
        const values = withClockDrift(liveValuesOf(controller.state), controller.state, clock);
        return { fetched: { kind: "inverter.live", serial, at, measuredAt: toSecond(at), values } };
      },
    },
    {
      name: `inverter.counters ${serial} (LAN ${where})`,
      of: { kind: "inverter.counters", serial },
      devices: [id],
      periodMs: periods.countersMs,
      async poll() {
        const controller = controllerOf(heardOf(context, serial), serial);
        if (!controller) return {};
        const at = now();
        const state = todayLoad.hold(controller.state);
        const point = inverterPointOf(state, at);
        const counters = counterValuesOf(state);
        return { fetched: { kind: "inverter.points", serial, at, points: [point], counters } };
      },
    },
    {
      // The fault registers the last live poll read, as the cloud's fault events.
      name: `inverter.events ${serial} (LAN ${where})`,
      of: { kind: "inverter.events", serial },
      devices: [id],
      periodMs: periods.liveMs,
      async poll() {
        const controller = controllerOf(heardOf(context, serial), serial);
        const active = controller && faultsOfState(controller.state);
        if (!active) return {};
        return { fetched: faultEvents.read(serial, active, now()) };
      },
    },
  ];
}

function emsResource(
  context: LocalResourceContext,
  serial: string,
  children: readonly string[],
  where: string,
  periodMs: number,
): Resource {
  const { now } = context;
  let lastLive: number | undefined;
  return {
    name: `ems ${serial} (LAN ${where})`,
    of: { kind: "ems", serial },
    devices: [deviceIdOf(serial), ...children.map(deviceIdOf)],
    periodMs,
    async poll(signal) {
      const dongle = await context.dongleFor(serial, signal);
      const devices = await dongle.poll(signal, lastLive);
      const controller = devices && controllerOf(devices, serial);
      if (!controller) return {};
      lastLive = dongle.lastHeardAt;
      const at = now();
      const clock = { atMs: at, heardAt: dongle.clockHeardAt, timeZone: context.timezone };
      const values = withClockDrift(emsValuesOf(controller.state, children), controller.state, clock);
      const down: Record<DeviceId, string> = {};
      children.forEach((child, index) => {
        if (values[`inverter_${index + 1}_status`] === "OFFLINE")
          down[deviceIdOf(child)] = `EMS ${serial} reports inverter ${child} as OFFLINE`;
      });
      return { fetched: { kind: "ems", serial, at, measuredAt: toSecond(at), values }, down };
    },
  };
}

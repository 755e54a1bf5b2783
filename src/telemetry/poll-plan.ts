import type { Inventory, PollConfig, Resource } from "../sources/index.js";
import { deviceIdOf } from "../vocabulary/device-id.js";

/**
 * Share of the budget's live allowance that planned polls may fill. The rest is for what
 * cannot be planned (refreshes after commands, the device lists, retries); what that leaves
 * goes to the history backfill.
 */
export const POLL_SHARE = 0.95;

const MINUTE = 60_000;
const FIVE_MINUTES = 5 * MINUTE;

export interface PollPlan {
  /** Requests a minute that the configured intervals need. */
  readonly requiredPerMinute: number;
  /** Requests a minute that polls may use. */
  readonly availablePerMinute: number;
  /** 1 when the configured intervals fit; otherwise every interval is multiplied by it. */
  readonly stretch: number;
  /** The intervals used. */
  readonly poll: PollConfig;
  /** Requests a minute at the intervals used. */
  readonly plannedPerMinute: number;
  /** When each resource first polls, ms after the start: spread over its interval when the first round would not fit at once. */
  readonly firstPollAfter: ReadonlyMap<Resource, number>;
  /** About how many stand-alone inverters `availablePerMinute` carries at the configured intervals. */
  readonly inverterCeiling: number | undefined;
  /** The same, with the live interval stretched to `freshMs` (and the others with it). */
  readonly inverterCeilingAt: (freshMs: number) => number | undefined;
  readonly resources: readonly Resource[];
}

/** Requests a minute the resources make: one per period, plus extras such as a data-point page turning over. */
export function requestsPerMinute(resources: readonly Resource[]): number {
  return periodic(resources) + extras(resources);
}

function periodic(resources: readonly Resource[]): number {
  return resources.reduce((sum, r) => sum + (r.periodMs ? MINUTE / r.periodMs : 0), 0);
}

function extras(resources: readonly Resource[]): number {
  return resources.reduce((sum, r) => sum + (r.extraPerHour ?? 0) / 60, 0);
}

/**
 * Fits the polls into the token's budget. When the configured intervals need more requests
 * than `availablePerMinute`, every interval is stretched by the same factor, so each device
 * keeps its share; and when the first round is larger than a minute's budget, each resource's
 * first poll is spread over its interval, so the devices take turns from the start instead of
 * queueing behind one burst.
 */
export function planPolls(options: {
  readonly inventory: Inventory;
  readonly poll: PollConfig;
  readonly availablePerMinute: number;
  readonly build: (poll: PollConfig) => Resource[];
}): PollPlan {
  const { inventory, availablePerMinute: available } = options;
  const configured = options.build(options.poll);
  const required = requestsPerMinute(configured);
  const flat = extras(configured);
  const stretch = required <= available ? 1 : periodic(configured) / Math.max(available - flat, available / 10);
  const poll = stretch === 1 ? options.poll : stretched(options.poll, stretch);
  const resources = stretch === 1 ? configured : options.build(poll);
  const firstPollAfter = new Map<Resource, number>();
  if (stretch > 1 || resources.length > available) {
    const byPeriod = new Map<number, Resource[]>();
    for (const resource of resources) {
      if (resource.periodMs === undefined) continue;
      byPeriod.set(resource.periodMs, [...(byPeriod.get(resource.periodMs) ?? []), resource]);
    }
    for (const [period, group] of byPeriod) {
      group.forEach((resource, index) => {
        firstPollAfter.set(resource, Math.floor((index * period) / group.length));
      });
    }
  }
  const one = oneInverter(inventory, configured);
  /** Inverters `available` carries with every configured interval multiplied by `factor`. */
  const ceiling = (factor: number): number | undefined => {
    if (!one) return undefined;
    const need = periodic(one) / factor + extras(one);
    return need > 0 ? Math.floor(available / need) : undefined;
  };
  return {
    requiredPerMinute: required,
    availablePerMinute: available,
    stretch,
    poll,
    plannedPerMinute: requestsPerMinute(resources),
    firstPollAfter,
    inverterCeiling: ceiling(1),
    inverterCeilingAt: (freshMs) => ceiling(Math.max(1, freshMs / options.poll.inverter)),
    resources,
  };
}

/** The resources of the first stand-alone inverter, which every such inverter repeats. */
function oneInverter(inventory: Inventory, resources: readonly Resource[]): Resource[] | undefined {
  const first = inventory.inverters.find((inverter) => inverter.emsSerial === undefined);
  if (!first) return undefined;
  const id = deviceIdOf(first.serial);
  return resources.filter((r) => r.devices.length === 1 && r.devices[0] === id);
}

function stretched(poll: PollConfig, factor: number): PollConfig {
  const scale = (ms: number) => Math.ceil((ms * factor) / 1000) * 1000;
  return {
    inverter: scale(poll.inverter),
    meter: scale(poll.meter),
    ems: scale(poll.ems),
    ev_charger: scale(poll.ev_charger),
    events: scale(poll.events),
    smart_device: scale(poll.smart_device),
  };
}

/** The poll keys the inventory's devices use. */
export function intervalsInUse(inventory: Inventory): (keyof PollConfig)[] {
  const keys = new Set<keyof PollConfig>();
  if (inventory.inverters.some((i) => i.emsSerial === undefined))
    for (const k of ["inverter", "meter", "events"] as const) keys.add(k);
  if (inventory.ems.length > 0) keys.add("ems");
  if (inventory.evChargers.length > 0) for (const k of ["ev_charger", "meter"] as const) keys.add(k);
  if (inventory.smartDevices.length > 0) keys.add("smart_device");
  return (["inverter", "meter", "ems", "ev_charger", "events", "smart_device"] as const).filter((k) => keys.has(k));
}

/** 302000 as "5m 2s". */
export function formatInterval(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h > 0 ? `${h}h` : "", m > 0 ? `${m}m` : "", s > 0 || seconds === 0 ? `${s}s` : ""];
  return parts.filter(Boolean).join(" ");
}

/** The start-up line: what the polls need, what the token allows, and the intervals used. */
export function describePlan(plan: PollPlan, inventory: Inventory, limitPerMinute: number): string {
  const intervals = intervalsInUse(inventory)
    .map((key) => `${key} ${formatInterval(plan.poll[key])}`)
    .join(", ");
  const need = Math.ceil(plan.requiredPerMinute);
  const usable = Math.floor(plan.availablePerMinute);
  const fresh = plan.inverterCeilingAt(FIVE_MINUTES);
  const ceiling =
    plan.inverterCeiling === undefined
      ? ""
      : `; at the configured intervals one token carries about ${plan.inverterCeiling} inverters` +
        (fresh !== undefined && fresh !== plan.inverterCeiling
          ? `, about ${fresh} with each one's live data read every 5 minutes`
          : "");
  if (plan.stretch === 1) {
    return `polls need ${need} requests a minute of the token's ${limitPerMinute} (${usable} for polls): polling every ${intervals}${ceiling}`;
  }
  return (
    `polls at the configured intervals need ${need} requests a minute, more than the token's ${limitPerMinute} allows ` +
    `(${usable} for polls, the rest kept for commands): every interval is stretched ${stretchText(plan.stretch)}, ` +
    `to ${intervals}, and devices take turns so that none is starved${ceiling}`
  );
}

function stretchText(stretch: number): string {
  return stretch < 2 ? `by ${((stretch - 1) * 100).toFixed(1)} %` : `${stretch.toFixed(2)} times`;
}

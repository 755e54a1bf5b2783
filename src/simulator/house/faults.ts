import { hash01 } from "../random.js";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DAYS_PER_MONTH = 30.4375;
const SALT_COUNT = 9001;
const SALT_FAULT = 9002;

/** What a fault does to the house while it lasts. */
export type FaultEffect = "trip" | "battery" | "comms";

interface FaultKind {
  readonly name: string;
  readonly effect: FaultEffect;
  readonly weight: number;
  readonly minMinutes: number;
  readonly maxMinutes: number;
}

const ARC_FAULT: FaultKind = { name: "Arc Fault", effect: "trip", weight: 0.15, minMinutes: 30, maxMinutes: 360 };
const KINDS: readonly FaultKind[] = [
  { name: "Grid Voltage High", effect: "trip", weight: 0.35, minMinutes: 2, maxMinutes: 30 },
  { name: "Communication Lost", effect: "comms", weight: 0.35, minMinutes: 5, maxMinutes: 180 },
  { name: "Battery Over Temperature", effect: "battery", weight: 0.15, minMinutes: 20, maxMinutes: 120 },
  ARC_FAULT,
];
const KINDS_WITHOUT_BATTERY = KINDS.filter((kind) => kind.effect !== "battery");

/** The longest fault, so that a fault active on a day started that day or the day before. */
export const MAX_FAULT_MS = 360 * MINUTE_MS;

export interface Fault {
  readonly name: string;
  readonly effect: FaultEffect;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * Faults starting in the 24 hours from `dayStartMs`, a function of the seed and the day only.
 * `perMonth` is the mean rate; battery faults need a battery.
 */
export function faultsOfDay(
  seed: number,
  day: number,
  dayStartMs: number,
  perMonth: number,
  hasBattery: boolean,
): Fault[] {
  const rate = Math.max(0, perMonth) / DAYS_PER_MONTH;
  const count = Math.floor(rate) + (hash01(seed, SALT_COUNT, day) < rate - Math.floor(rate) ? 1 : 0);
  const faults: Fault[] = [];
  for (let index = 0; index < count; index++) {
    const kind = pickKind(hash01(seed, SALT_FAULT, day, index, 0), hasBattery);
    const startMinute = Math.floor(hash01(seed, SALT_FAULT, day, index, 1) * (DAY_MS / MINUTE_MS));
    const minutes =
      kind.minMinutes + Math.floor(hash01(seed, SALT_FAULT, day, index, 2) * (kind.maxMinutes - kind.minMinutes + 1));
    const startMs = dayStartMs + startMinute * MINUTE_MS;
    faults.push({ name: kind.name, effect: kind.effect, startMs, endMs: startMs + minutes * MINUTE_MS });
  }
  return faults.sort((a, b) => a.startMs - b.startMs);
}

function pickKind(draw: number, hasBattery: boolean): FaultKind {
  const kinds = hasBattery ? KINDS : KINDS_WITHOUT_BATTERY;
  const total = kinds.reduce((sum, kind) => sum + kind.weight, 0);
  let remaining = draw * total;
  for (const kind of kinds) {
    remaining -= kind.weight;
    if (remaining < 0) return kind;
  }
  return ARC_FAULT;
}

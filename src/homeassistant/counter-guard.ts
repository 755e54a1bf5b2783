import type { Logger } from "../log/log.js";

/** Readings in a row below the held value after which a drop is taken as a real reset. */
const DROPS_TO_ACCEPT = 3;
/**
 * The coarser of the paths' resolutions, kWh: the dongle's registers count 0.1, the cloud 0.01.
 * A reading this little below the held one is the same energy told less finely (a switch of path),
 * held without a word and never taken as a reset.
 */
const COARSEST_KWH = 0.1;
/** Float slack, so 1234.56 - 1234.46 counts as 0.1. */
const EPSILON = 1e-9;

interface Held {
  value: number;
  /** The device's local day when the value was taken. */
  day: string;
  drops: number;
}

/**
 * Energy counters never go backwards by a glitch: a lower reading is held back (the last value
 * is published again) and logged (silently when less than the coarser path's resolution), unless it is a daily counter's reset at the device's local
 * midnight, or the lower value persists for three readings (a real reset: a replaced meter).
 * Home Assistant's Energy dashboard would otherwise count the dip as a reset and the climb
 * back as new energy: a spike.
 */
export class CounterGuard {
  private readonly held = new Map<string, Held>();

  constructor(private readonly logger: Logger) {}

  accept(device: string, key: string, value: number | null, kind: "daily" | "lifetime", day: string): number | null {
    if (value === null) return null;
    const id = `${device}\u0000${key}`;
    const before = this.held.get(id);
    if (!before || value >= before.value || (kind === "daily" && day !== before.day)) {
      this.held.set(id, { value, day, drops: 0 });
      return value;
    }
    if (before.value - value < COARSEST_KWH - EPSILON) return before.value;
    before.drops++;
    if (before.drops >= DROPS_TO_ACCEPT) {
      this.logger.warn(
        { device, key, from: before.value, to: value },
        `${key} of ${device} stayed below its last value for ${DROPS_TO_ACCEPT} readings: taken as a reset`,
      );
      this.held.set(id, { value, day, drops: 0 });
      return value;
    }
    if (before.drops === 1)
      this.logger.warn(
        { device, key, held: before.value, read: value },
        `${key} of ${device} went backwards: holding ${before.value} until it catches up`,
      );
    return before.value;
  }
}

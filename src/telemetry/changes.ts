import { isDeepStrictEqual } from "node:util";
import type { Reading } from "./readings.js";

/** Which value a reading replaces: the same kind for the same device. */
function keyOf(reading: Reading): string {
  switch (reading.kind) {
    case "inverter.live":
    case "inverter.counters":
    case "inverter.events":
    case "ems":
      return `${reading.kind} ${reading.serial}`;
    case "ev.status":
    case "ev.meter":
    case "ev.session":
    case "smart.data":
      return `${reading.kind} ${reading.uuid}`;
    case "availability":
      return `${reading.kind} ${reading.device}`;
  }
}

/** Lets a reading through only when it differs from the last one of its key, fetch time aside. */
export class ChangeFilter {
  private readonly last = new Map<string, Omit<Reading, "at">>();

  changed(reading: Reading): boolean {
    const { at: _at, ...value } = reading;
    const key = keyOf(reading);
    const previous = this.last.get(key);
    if (previous !== undefined && isDeepStrictEqual(previous, value)) return false;
    this.last.set(key, value);
    return true;
  }
}

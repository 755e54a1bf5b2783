import { readBoolean, readClock, readNumber, type SettingsView } from "./settings-view.js";

/** A daily window in local minutes of day; it crosses midnight when end < start. */
export interface TimeSlot {
  readonly start: number;
  readonly end: number;
  /** The slot's SOC limit in percent: upper for AC charge, lower for DC discharge. */
  readonly soc: number;
}

/** The settings the physics obeys, parsed once per read. */
export interface ControlSettings {
  readonly eco: boolean;
  readonly dcDischarge: boolean;
  readonly dcSlots: readonly TimeSlot[];
  readonly acCharge: boolean;
  readonly acSlots: readonly TimeSlot[];
  /** Setting 77 when 17 is on, else 100. */
  readonly acUpperPercent: number;
  readonly reservePercent: number;
  readonly cutoffPercent: number;
  readonly chargeLimitW: number;
  readonly dischargeLimitW: number;
  readonly chargePercent: number;
  readonly dischargePercent: number;
  readonly maxOutputPercent: number;
  /** 0 not paused, 1 charge, 2 discharge, 3 both. */
  readonly pauseMode: number;
  /** Undefined: the pause holds all day. */
  readonly pauseWindow: TimeSlot | undefined;
}

const DC_SLOT_IDS: readonly (readonly [number, number, number])[] = [
  [53, 54, 129],
  [41, 42, 130],
  ...Array.from({ length: 8 }, (_, index) => [131 + index * 3, 132 + index * 3, 133 + index * 3] as const),
];

const AC_SLOT_IDS: readonly (readonly [number, number, number])[] = [
  [64, 65, 101],
  ...Array.from({ length: 9 }, (_, index) => [102 + index * 3, 103 + index * 3, 104 + index * 3] as const),
];

function readSlots(
  view: SettingsView,
  ids: readonly (readonly [number, number, number])[],
  defaultSoc: number,
): TimeSlot[] {
  const slots: TimeSlot[] = [];
  for (const [startId, endId, socId] of ids) {
    const start = readClock(view, startId);
    const end = readClock(view, endId);
    if (start === undefined || end === undefined || start === end) continue;
    slots.push({ start, end, soc: clampPercent(readNumber(view, socId, defaultSoc)) });
  }
  return slots;
}

const clampPercent = (value: number): number => Math.min(100, Math.max(0, value));

export function readControl(view: SettingsView): ControlSettings {
  const pauseStart = readClock(view, 155);
  const pauseEnd = readClock(view, 156);
  return {
    eco: readBoolean(view, 24, true),
    dcDischarge: readBoolean(view, 56, false),
    dcSlots: readSlots(view, DC_SLOT_IDS, 4),
    acCharge: readBoolean(view, 66, false),
    acSlots: readSlots(view, AC_SLOT_IDS, 100),
    acUpperPercent: readBoolean(view, 17, false) ? clampPercent(readNumber(view, 77, 100)) : 100,
    reservePercent: clampPercent(readNumber(view, 71, 4)),
    cutoffPercent: clampPercent(readNumber(view, 75, 4)),
    chargeLimitW: Math.max(0, readNumber(view, 72, Number.POSITIVE_INFINITY)),
    dischargeLimitW: Math.max(0, readNumber(view, 73, Number.POSITIVE_INFINITY)),
    chargePercent: clampPercent(readNumber(view, 267, 100)),
    dischargePercent: clampPercent(readNumber(view, 268, 100)),
    maxOutputPercent: clampPercent(readNumber(view, 47, 100)),
    pauseMode: Math.round(readNumber(view, 96, 0)),
    pauseWindow:
      pauseStart !== undefined && pauseEnd !== undefined && pauseStart !== pauseEnd
        ? { start: pauseStart, end: pauseEnd, soc: 0 }
        : undefined,
  };
}

export function slotActive(slot: TimeSlot, minute: number): boolean {
  return slot.start < slot.end ? minute >= slot.start && minute < slot.end : minute >= slot.start || minute < slot.end;
}

/** The first active slot at a local minute, if any. */
export function activeSlot(slots: readonly TimeSlot[], minute: number): TimeSlot | undefined {
  for (const slot of slots) if (slotActive(slot, minute)) return slot;
  return undefined;
}

import type { DeviceControl } from "../sources/index.js";
import type { LocalSnapshots } from "../store/index.js";
import { localMinuteOfDay } from "../time/index.js";
import {
  type Carries,
  CHARGE_LIMIT_SETTING,
  DISCHARGE_LIMIT_SETTING,
  hasBatteryLimits,
  ownSnapshotName,
  PAUSE_MODE_SETTING,
  pauseHeldByDaemon,
} from "../vocabulary/index.js";
import type { ChangeOutcome, SettingValue } from "./change.js";
import type { ControlReading } from "./control-state.js";
import type { ControlledInverter } from "./devices.js";
import { restoreLocalSnapshot } from "./local-snapshot.js";

/*
 * Pause Battery on a model without its registers (HR 318-320: a hybrid answers none of the HR
 * 300-359 block) but with the battery power limits (HR 111/112, settings 72/73): the daemon holds
 * the pause's mode and slot, and while the pause holds it sets the paused side's limit to 0, as
 * GivTCP's temporary pauses and Predbat (for an inverter without a timed pause) do. The limits as
 * they were are kept as one of the daemon's own snapshots, and put back through the gate's setting
 * path when the pause ends; the mode and slot are kept in another, so a restart keeps both.
 */

export const PAUSE_PRESET = "pause-battery";
export const CHARGE_LIMIT = CHARGE_LIMIT_SETTING;
export const DISCHARGE_LIMIT = DISCHARGE_LIMIT_SETTING;
const PAUSE_MODE = PAUSE_MODE_SETTING;
const PAUSE_START = 155;
const PAUSE_END = 156;

/** The daemon's own snapshots the emulation keeps: the limits before the pause, and the pause held. */
export const LIMITS_SNAPSHOT = ownSnapshotName("pause-limits");
export const HELD_SNAPSHOT = ownSnapshotName("pause-held");

/** 0 not paused, 1 charge, 2 discharge, 3 both (setting 96's values, GivTCP's order). */
export type PauseMode = 0 | 1 | 2 | 3;

export interface HeldPause {
  readonly mode: PauseMode;
  /** "HH:mm", local time. */
  readonly start: string;
  readonly end: string;
}

/** GivTCP's default slot, which Predbat sets: the whole day. */
export const NOT_PAUSED: HeldPause = { mode: 0, start: "00:00", end: "23:59" };

/**
 * Whether the daemon can hold a side of the battery at 0 through its power limits: its changes go
 * over the LAN, which has both limits. The discharge target (discharge-target.ts) holds by them
 * on such a model whether its pause is its own register or the daemon's.
 */
export function holdsLimits(control: DeviceControl, serial: string): boolean {
  return control.pathOf(serial) === "local" && hasBatteryLimits(carriesOver(control, serial));
}

/** Whether the device's pause is the daemon's: it holds the limits, and the LAN has no pause register. */
export function emulatesPause(control: DeviceControl, serial: string): boolean {
  return control.pathOf(serial) === "local" && pauseHeldByDaemon(carriesOver(control, serial));
}

const carriesOver =
  (control: DeviceControl, serial: string): Carries =>
  (setting) =>
    control.inverters.carries?.(serial, { setting });

const isMode = (value: unknown): value is PauseMode => value === 0 || value === 1 || value === 2 || value === 3;
const isTime = (value: unknown): value is string =>
  typeof value === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);

/** The pause the daemon holds for the device; not paused when it holds none. */
export function heldPause(snapshots: LocalSnapshots, serial: string): HeldPause {
  const kept = snapshots.get(serial, HELD_SNAPSHOT);
  const value = (id: number) => kept?.settings.find((one) => one.settingId === id)?.value;
  const mode = value(PAUSE_MODE);
  const start = value(PAUSE_START);
  const end = value(PAUSE_END);
  return {
    mode: isMode(mode) ? mode : NOT_PAUSED.mode,
    start: isTime(start) ? start : NOT_PAUSED.start,
    end: isTime(end) ? end : NOT_PAUSED.end,
  };
}

export function keepHeldPause(snapshots: LocalSnapshots, serial: string, held: HeldPause, now: number): void {
  snapshots.delete(serial, HELD_SNAPSHOT);
  snapshots.add({
    serial,
    name: HELD_SNAPSHOT,
    takenAt: now,
    settings: [
      { settingId: PAUSE_MODE, name: "Pause Battery", value: held.mode },
      { settingId: PAUSE_START, name: "Pause Battery Start Time", value: held.start },
      { settingId: PAUSE_END, name: "Pause Battery End Time", value: held.end },
    ],
  });
}

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * Whether the slot covers this minute of the day: from its start to its end, across midnight when
 * the end is earlier. An end of 23:59 (the last time GivTCP's selects offer) runs to midnight, so
 * 00:00-23:59 is the whole day; a slot whose start and end are the same covers nothing.
 */
export function inSlot(held: Pick<HeldPause, "start" | "end">, minute: number): boolean {
  const start = minutesOf(held.start);
  const end = held.end === "23:59" ? 24 * 60 : minutesOf(held.end);
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** Which limits the pause holds at 0 now: none outside its slot. */
export function pausedNow(held: HeldPause, minute: number): { readonly charge: boolean; readonly discharge: boolean } {
  const on = held.mode !== 0 && inSlot(held, minute);
  return { charge: on && (held.mode & 1) !== 0, discharge: on && (held.mode & 2) !== 0 };
}

/** The sides paused now, the discharge also while the discharge target holds it. */
export function withTarget(
  paused: { readonly charge: boolean; readonly discharge: boolean },
  deps: Pick<PauseDeps, "targetHolds">,
): { readonly charge: boolean; readonly discharge: boolean } {
  return { charge: paused.charge, discharge: paused.discharge || deps.targetHolds?.() === true };
}

/** The pause as the device shows it: the mode held, and any limit at 0 shown as that side paused. */
export function shownPause(held: HeldPause, limitsMode: number): Record<string, unknown> {
  return { mode: held.mode | (limitsMode & 3), start_time: held.start, end_time: held.end };
}

export interface PauseDeps {
  readonly control: DeviceControl;
  /** Whether the discharge target (discharge-target.ts) holds the discharge paused now, besides the pause itself. */
  readonly targetHolds?: () => boolean;
  readonly snapshots: LocalSnapshots;
  readonly signal: AbortSignal;
  readonly now: () => number;
  readonly timeZone: () => string;
  readonly remember: (reading: ControlReading) => void;
  /**
   * One setting through the gate's own path (read first, skipped when it holds, sent, audited,
   * counted); `restore` when it puts a kept limit back, which goes even when the budget is spent.
   */
  readonly applySetting: (settingId: number, value: SettingValue, restore: boolean) => Promise<ChangeOutcome>;
}

/** What one enforcement did, in words, and whether all of it went. */
export interface Enforced {
  readonly ok: boolean;
  readonly message: string;
}

async function readLimit(deps: PauseDeps, serial: string, settingId: number): Promise<number | string> {
  const read = await deps.control.inverters.readSetting(serial, settingId, {
    priority: "command",
    signal: deps.signal,
  });
  if (read.outcome !== "done") return read.reason;
  return typeof read.value === "number" ? read.value : `it reads as ${String(read.value)}`;
}

/**
 * Puts the limits where the held pause wants them now: the paused side's at 0 (the limits as they
 * were kept first, once), the other side's as kept; outside the slot or not paused, the kept limits
 * back through the snapshot's restore (which deletes it once all are back).
 */
export async function enforcePause(deps: PauseDeps, inverter: ControlledInverter): Promise<Enforced> {
  const { serial } = inverter;
  const held = heldPause(deps.snapshots, serial);
  const paused = withTarget(pausedNow(held, localMinuteOfDay(deps.now(), deps.timeZone())), deps);
  const kept = deps.snapshots.get(serial, LIMITS_SNAPSHOT);
  if (!paused.charge && !paused.discharge) {
    if (!kept) return { ok: true, message: "not paused: the battery's power limits are its own" };
    const restore = { ...deps, applySetting: (id: number, value: SettingValue) => deps.applySetting(id, value, true) };
    const restored = await restoreLocalSnapshot(restore, inverter, LIMITS_SNAPSHOT);
    return { ok: restored.ok, message: `pause ended: ${restored.message}` };
  }
  let limits = kept;
  if (!limits) {
    const charge = await readLimit(deps, serial, CHARGE_LIMIT);
    const discharge = await readLimit(deps, serial, DISCHARGE_LIMIT);
    if (typeof charge !== "number" || typeof discharge !== "number")
      return {
        ok: false,
        message: `the battery's power limits could not be read to keep them before the pause (${[charge, discharge].filter((one) => typeof one === "string").join("; ")}): nothing sent`,
      };
    limits = {
      serial,
      name: LIMITS_SNAPSHOT,
      takenAt: deps.now(),
      settings: [
        { settingId: CHARGE_LIMIT, name: "Battery Charge Power", value: charge },
        { settingId: DISCHARGE_LIMIT, name: "Battery Discharge Power", value: discharge },
      ],
    };
    deps.snapshots.add(limits);
  }
  const keptValue = (id: number) => limits.settings.find((one) => one.settingId === id)?.value ?? 0;
  const wanted: [number, boolean][] = [
    [CHARGE_LIMIT, paused.charge],
    [DISCHARGE_LIMIT, paused.discharge],
  ];
  const problems: string[] = [];
  for (const [id, pause] of wanted) {
    const value = pause ? 0 : keptValue(id);
    // A side that already holds its value is left alone: nothing to check or send.
    if ((await readLimit(deps, serial, id)) === value) continue;
    const outcome = await deps.applySetting(id, value, !pause);
    if (!outcome.ok) problems.push(outcome.message);
  }
  const sides = [paused.charge ? "charge" : "", paused.discharge ? "discharge" : ""].filter(Boolean).join(" and ");
  return problems.length === 0
    ? { ok: true, message: `battery ${sides} paused: its power limit held at 0 by energy2mqtt` }
    : { ok: false, message: `battery ${sides} not fully paused: ${problems.join("; ")}` };
}

/**
 * A limit written while its side is paused: kept as the value to put back when the pause ends,
 * and not written (the pause holds it at 0, as an inverter's own pause holds the battery whatever
 * its limits say). Undefined when the side is not paused now.
 */
export function holdLimitWhilePaused(
  deps: Pick<PauseDeps, "snapshots" | "now" | "timeZone" | "targetHolds">,
  serial: string,
  settingId: number,
  value: SettingValue,
): string | undefined {
  if (settingId !== CHARGE_LIMIT && settingId !== DISCHARGE_LIMIT) return undefined;
  const paused = withTarget(
    pausedNow(heldPause(deps.snapshots, serial), localMinuteOfDay(deps.now(), deps.timeZone())),
    deps,
  );
  const kept = deps.snapshots.get(serial, LIMITS_SNAPSHOT);
  if (!kept || !(settingId === CHARGE_LIMIT ? paused.charge : paused.discharge)) return undefined;
  deps.snapshots.delete(serial, LIMITS_SNAPSHOT);
  deps.snapshots.add({
    ...kept,
    settings: kept.settings.map((one) => (one.settingId === settingId ? { ...one, value } : one)),
  });
  const side = settingId === CHARGE_LIMIT ? "charge" : "discharge";
  return `the battery's ${side} is paused, its limit held at 0: ${String(value)} W is kept and put back when the pause ends`;
}

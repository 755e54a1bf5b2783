import type { ControlReads } from "../sources/index.js";
import type { LocalSnapshots } from "../store/index.js";
import { ownSnapshotName } from "../vocabulary/index.js";
import { inSlot } from "./pause-emulation.js";

/*
 * The discharge target (GivTCP's discharge_target_soc_1, HR 272 on the models that have it) on a
 * model without that register but with the battery power limits (pause-emulation.ts, whether the
 * model's pause is the daemon's or its own HR 318-320, as on an AC-coupled unit): the daemon keeps
 * the target, and while a discharge slot runs and the battery is at or below it, it holds the
 * discharge (its power limit at 0) until the slot ends, as the register stops a timed discharge at
 * its level. Checked once a minute (pause-slots.ts) on the latest live SoC.
 */

/** Timed Export's field for the target, as the LAN path lists it (lan-presets.ts). */
export const TARGET_FIELD = "discharge_target_percent";
export const TARGET_PRESET = "timed-export";
export const TARGET_SNAPSHOT = ownSnapshotName("discharge-target");
/** The cloud's setting for the first discharge slot's lower limit, which HR 272's job is. */
const TARGET_SETTING = 129;
const RESERVE_SETTING = 71;
export const TARGET_MIN = 4;
export const TARGET_MAX = 100;

/** The target the daemon keeps for the device; undefined when none was set. */
export function keptTarget(snapshots: LocalSnapshots, serial: string): number | undefined {
  const value = snapshots.get(serial, TARGET_SNAPSHOT)?.settings.find((one) => one.settingId === TARGET_SETTING)?.value;
  return typeof value === "number" ? value : undefined;
}

export function keepTarget(snapshots: LocalSnapshots, serial: string, percent: number, now: number): void {
  snapshots.delete(serial, TARGET_SNAPSHOT);
  snapshots.add({
    serial,
    name: TARGET_SNAPSHOT,
    takenAt: now,
    settings: [{ settingId: TARGET_SETTING, name: "Discharge Target SOC 1", value: percent }],
  });
}

/** Why a requested target may not be kept; undefined when it may. */
export function targetProblem(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isInteger(value) && value >= TARGET_MIN && value <= TARGET_MAX)
    return undefined;
  return `${TARGET_FIELD}: a whole percentage from ${TARGET_MIN} to ${TARGET_MAX} (got ${JSON.stringify(value)})`;
}

/** The target in force: the one kept, or else the battery reserve's value (read now); undefined when neither is known. */
export async function targetNow(
  reads: ControlReads,
  snapshots: LocalSnapshots,
  serial: string,
  signal: AbortSignal,
): Promise<number | undefined> {
  const kept = keptTarget(snapshots, serial);
  if (kept !== undefined) return kept;
  const reserve = await reads.inverters.readSetting(serial, RESERVE_SETTING, { priority: "background", signal });
  return reserve.outcome === "done" && typeof reserve.value === "number"
    ? Math.min(TARGET_MAX, Math.max(TARGET_MIN, reserve.value))
    : undefined;
}

const slotSchema = (slot: unknown): { start: string; end: string } | undefined => {
  if (typeof slot !== "object" || slot === null) return undefined;
  const { start_time: start, end_time: end } = slot as Record<string, unknown>;
  const time = (value: unknown) => typeof value === "string" && /^\d\d:\d\d/.test(value);
  return time(start) && time(end) ? { start: String(start).slice(0, 5), end: String(end).slice(0, 5) } : undefined;
};

/**
 * The discharge slot that runs this minute, as "HH:mm-HH:mm", from a timed preset's values (its
 * switch on and the minute inside one of its slots); undefined when none runs.
 */
export function runningSlot(values: Readonly<Record<string, unknown>>, minute: number): string | undefined {
  if (values.enabled !== true || !Array.isArray(values.slots)) return undefined;
  for (const raw of values.slots) {
    const slot = slotSchema(raw);
    if (slot && inSlot(slot, minute)) return `${slot.start}-${slot.end}`;
  }
  return undefined;
}

/** What the check needs: the path's reads, the daemon's snapshots, and the holds under way (serial -> slot). */
export interface TargetCheckDeps {
  readonly control: ControlReads;
  readonly snapshots: LocalSnapshots;
  readonly holds: Map<string, string>;
  readonly signal: AbortSignal;
}

/** A hold that started or ended: its reason, and what it was decided on, for the audit log. */
export interface TargetTurn {
  readonly message: string;
  readonly request: Record<string, string | number>;
}

/**
 * This minute's check: a hold starts when a discharge slot runs and the SoC is at or below the
 * target, and ends when its slot no longer runs (not when the SoC rises again: HR 272 stops the
 * slot for good). Undefined when nothing changed.
 */
export async function checkTarget(
  deps: TargetCheckDeps,
  serial: string,
  now: { readonly soc: number | undefined; readonly minute: number },
): Promise<TargetTurn | undefined> {
  const { control, snapshots, holds, signal } = deps;
  const { soc, minute } = now;
  const holding = holds.get(serial);
  if (holding === undefined) {
    // Nothing to read while no hold can start: no SoC yet, or the battery above a target kept.
    const kept = keptTarget(snapshots, serial);
    if (soc === undefined || (kept !== undefined && soc > kept)) return undefined;
  }
  const target = holding === undefined ? await targetNow(control, snapshots, serial, signal) : undefined;
  if (holding === undefined && (soc === undefined || target === undefined || soc > target)) return undefined;
  const call = { priority: "background" as const, signal };
  // Timed Demand shares the discharge slots and their switch, in eco mode.
  const slot =
    runningSlot(await control.inverters.readPreset(serial, TARGET_PRESET, call), minute) ??
    runningSlot(await control.inverters.readPreset(serial, "timed-discharge", call), minute);
  if (holding !== undefined) {
    if (holding === slot) return undefined;
    holds.delete(serial);
    return {
      message: `the discharge slot ${holding} ended: the discharge target no longer holds the discharge`,
      request: { slot: holding },
    };
  }
  if (slot === undefined || soc === undefined || target === undefined) return undefined;
  holds.set(serial, slot);
  return {
    message: `battery at ${soc}%, at or below the discharge target ${target}%, during the discharge slot ${slot}: discharge paused until the slot ends`,
    request: { soc, target, slot },
  };
}

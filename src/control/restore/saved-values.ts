import type { SavedValue } from "../../store/index.js";
import type { ChangeRequest } from "../change.js";
import { sameValue } from "../same-value.js";
import type { DeviceReads } from "./device-reads.js";

const HH_MM_SS = /^(\d{2}:\d{2}):\d{2}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Slots as a list filled from slot 1, or keyed by slot number: keyed. */
function byNumber(slots: unknown): Record<string, unknown> {
  if (Array.isArray(slots)) return Object.fromEntries(slots.map((slot, index) => [String(index + 1), slot]));
  return isRecord(slots) ? slots : {};
}

/** Values read from the device, in the form a write takes: times without seconds. */
function writable(value: unknown): unknown {
  if (typeof value === "string") return HH_MM_SS.exec(value)?.[1] ?? value;
  if (Array.isArray(value)) return value.map(writable);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, writable(item)]));
  return value;
}

/** Whether `actual` holds every value of `expected`, the way the inverter compares them. */
export function holds(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected))
    return Array.isArray(actual) && expected.every((item, index) => holds(actual[index], item));
  // A field the path in force does not read (a slot's SOC limit on a model whose LAN map has no
  // register for it, the cloud's max_power_watts) cannot be compared, nor written by that path.
  if (isRecord(expected))
    return (
      isRecord(actual) && Object.entries(expected).every(([key, item]) => !(key in actual) || holds(actual[key], item))
    );
  return sameValue(actual, expected);
}

/** The preset's current values of just the fields (and slot numbers) a change is about to write. */
export function presetPart(current: Readonly<Record<string, unknown>>, fields: Readonly<Record<string, unknown>>) {
  const part: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) {
    if (key === "slots") {
      const now = byNumber(current.slots);
      part.slots = Object.fromEntries(
        Object.keys(byNumber(fields.slots)).map((number) => [number, writable(now[number] ?? {})]),
      );
    } else if (key in current) part[key] = writable(current[key]);
  }
  return part;
}

/** The fields of a saved slot the path reads now (all of them when it reads no slot there). */
function readFields(now: unknown, slot: unknown): unknown {
  if (!isRecord(now) || !isRecord(slot)) return slot;
  return Object.fromEntries(Object.entries(slot).filter(([key]) => key in now));
}

/** The part of a saved preset that differs from the device's values now; empty when nothing does. */
export function presetDifference(current: Readonly<Record<string, unknown>>, saved: Readonly<Record<string, unknown>>) {
  const difference: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(saved)) {
    if (key === "slots") {
      const now = byNumber(current.slots);
      const slots = Object.fromEntries(
        Object.entries(byNumber(value))
          .filter(([number, slot]) => !holds(now[number], slot))
          .map(([number, slot]) => [number, readFields(now[number], slot)]),
      );
      if (Object.keys(slots).length > 0) difference.slots = slots;
    } else if (key in current && !holds(current[key], value)) difference[key] = value;
  }
  return difference;
}

/** Reads what a change is about to overwrite, so it can be put back; undefined when it cannot be. */
export async function recordBefore(reads: DeviceReads, request: ChangeRequest): Promise<SavedValue | undefined> {
  switch (request.kind) {
    case "preset": {
      const current = await reads.presetValues(request.serial, request.preset);
      return {
        kind: "preset",
        serial: request.serial,
        preset: request.preset,
        fields: presetPart(current, request.fields),
      };
    }
    case "setting": {
      const value = await reads.setting(request.serial, request.settingId);
      if (value === undefined) return undefined;
      return { kind: "setting", serial: request.serial, settingId: request.settingId, value };
    }
    case "ev-command": {
      if (request.command === "change-mode") {
        const active = await reads.chargerMode(request.uuid);
        return typeof active === "string"
          ? { kind: "ev-command", uuid: request.uuid, command: "change-mode", request: { mode: active } }
          : undefined;
      }
      if (request.command === "adjust-charge-power-limit") {
        const limit = await reads.chargerPowerLimit(request.uuid);
        // The limit is written in amps: a limit the charger reports in watts cannot be put back as it was.
        return limit.value !== undefined && inAmps(limit.unit)
          ? { kind: "ev-command", uuid: request.uuid, command: request.command, request: { limit: limit.value } }
          : undefined;
      }
      if (request.command === "start-charge" || request.command === "stop-charge") {
        const charging = inSession(await reads.chargerStatus(request.uuid));
        return {
          kind: "ev-command",
          uuid: request.uuid,
          command: charging ? "start-charge" : "stop-charge",
          request: {},
        };
      }
      return undefined;
    }
  }
}

/** Whether a charger's limit is in amps (the unit adjust-charge-power-limit writes); a charger that does not say is taken to mean amps. */
export function inAmps(unit: string | null | undefined): boolean {
  return unit === undefined || unit === null || unit.toUpperCase() === "A";
}

/** A session runs (the charger may pause it) until stop-charge or unplugging. */
export function inSession(status: string | null | undefined): boolean {
  return status === "Charging" || status === "SuspendedEV" || status === "SuspendedEVSE";
}

/** The control a saved value belongs to, as the rules name it: `preset:SERIAL:id`, `setting:SERIAL:id`, `charger:UUID:command`. */
export function savedControl(saved: SavedValue): string {
  if (saved.kind === "preset") return `preset:${saved.serial}:${saved.preset}`;
  if (saved.kind === "setting") return `setting:${saved.serial}:${saved.settingId}`;
  // start and stop act on the same thing: whether the car charges.
  return `charger:${saved.uuid}:${saved.command === "stop-charge" ? "start-charge" : saved.command}`;
}

/** What a change writes, in the form a restore compares with the device. */
export function wroteBy(request: ChangeRequest): SavedValue {
  switch (request.kind) {
    case "preset":
      return { kind: "preset", serial: request.serial, preset: request.preset, fields: { ...request.fields } };
    case "setting":
      return { kind: "setting", serial: request.serial, settingId: request.settingId, value: request.value };
    case "ev-command":
      return { kind: "ev-command", uuid: request.uuid, command: request.command, request: { ...request.request } };
  }
}

/** A preset's fields with `later` over `earlier`, slots merged by number. */
export function mergeFields(
  earlier: Readonly<Record<string, unknown>>,
  later: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...earlier, ...later };
  if ("slots" in earlier && "slots" in later) {
    const slots: Record<string, unknown> = { ...byNumber(earlier.slots) };
    for (const [number, slot] of Object.entries(byNumber(later.slots))) {
      const known = slots[number];
      slots[number] = isRecord(known) && isRecord(slot) ? { ...known, ...slot } : slot;
    }
    fields.slots = slots;
  }
  return fields;
}

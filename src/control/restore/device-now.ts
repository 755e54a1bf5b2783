import type { SavedValue } from "../../store/index.js";
import { sameValue } from "../same-value.js";
import type { DeviceReads } from "./device-reads.js";
import { inAmps, inSession, presetDifference } from "./saved-values.js";

/** What the device holds now of a saved value's control; undefined when it cannot be read. */
export type Current =
  | { readonly kind: "preset"; readonly values: Readonly<Record<string, unknown>> }
  | { readonly kind: "setting"; readonly value: unknown }
  | { readonly kind: "mode"; readonly active: unknown }
  | { readonly kind: "charging"; readonly charging: boolean }
  | { readonly kind: "limit"; readonly value: number | undefined }
  | undefined;

export async function readCurrent(reads: DeviceReads, saved: SavedValue): Promise<Current> {
  switch (saved.kind) {
    case "preset":
      return { kind: "preset", values: await reads.presetValues(saved.serial, saved.preset) };
    case "setting": {
      const value = await reads.setting(saved.serial, saved.settingId);
      return value === undefined ? undefined : { kind: "setting", value };
    }
    case "ev-command":
      if (saved.command === "change-mode") return { kind: "mode", active: await reads.chargerMode(saved.uuid) };
      if (saved.command === "start-charge" || saved.command === "stop-charge")
        return { kind: "charging", charging: inSession(await reads.chargerStatus(saved.uuid)) };
      if (saved.command === "adjust-charge-power-limit") {
        const limit = await reads.chargerPowerLimit(saved.uuid);
        return { kind: "limit", value: inAmps(limit.unit) ? limit.value : undefined };
      }
      return undefined;
  }
}

/**
 * How the device differs from what the rule wrote, in words; undefined while it still holds it
 * (or cannot be read: then the value is put back, as promised).
 */
export function changedSince(wrote: SavedValue, current: Current): string | undefined {
  if (current === undefined) return undefined;
  if (wrote.kind === "setting" && current.kind === "setting")
    return sameValue(current.value, wrote.value)
      ? undefined
      : `now ${String(current.value)}, the rule wrote ${String(wrote.value)}`;
  if (wrote.kind === "preset" && current.kind === "preset") {
    // Only the fields the preset reads back can be compared.
    const known = Object.fromEntries(Object.entries(wrote.fields).filter(([key]) => key in current.values));
    const differ = Object.keys(presetDifference(current.values, known));
    return differ.length === 0 ? undefined : `${differ.join(", ")} no longer as the rule wrote`;
  }
  if (wrote.kind === "ev-command" && current.kind === "mode")
    return current.active === wrote.request.mode
      ? undefined
      : `mode now ${String(current.active)}, the rule set ${String(wrote.request.mode)}`;
  if (wrote.kind === "ev-command" && current.kind === "limit")
    return current.value === undefined || sameValue(current.value, wrote.request.limit)
      ? undefined
      : `the current limit is ${current.value} A now, the rule set ${String(wrote.request.limit)} A`;
  if (wrote.kind === "ev-command" && current.kind === "charging")
    return current.charging === (wrote.command === "start-charge")
      ? undefined
      : `the car is ${current.charging ? "charging" : "not charging"} now, the rule sent ${wrote.command}`;
  return undefined;
}

import type { SettingDescriptor } from "../vocabulary/index.js";
import type { ChangeRequest } from "./change.js";
import type { ControlGate } from "./gate.js";
import { fieldSettings, presetsOfSetting } from "./linked-controls.js";

type Record = Pick<ControlGate, "remember" | "controlValues">;

/**
 * After a change through a preset or a setting, the other side shows the same value: a preset
 * field that is one setting gives that setting its value as read back, and a setting gives the
 * presets that write it theirs. Nothing is read; a value whose type differs from the one known
 * is left for the next read.
 */
export function mirrorLinked(
  record: Record,
  settings: readonly SettingDescriptor[],
  request: Exclude<ChangeRequest, { kind: "ev-command" }>,
): void {
  const { serial } = request;
  const known = record.controlValues(serial);
  if (request.kind === "preset") {
    const values = known.presets?.[request.preset];
    if (!values) return;
    for (const { field, settingId } of fieldSettings(request.preset, settings)) {
      const value = values[field];
      if (isSettingValue(value) && sameType(known.settings?.[settingId], value))
        record.remember({ kind: "setting", serial, settingId, value });
    }
    return;
  }
  const value = known.settings?.[request.settingId];
  if (value === undefined) return;
  for (const preset of presetsOfSetting(request.settingId, settings)) {
    const values = known.presets?.[preset];
    const link = fieldSettings(preset, settings).find((one) => one.settingId === request.settingId);
    if (!values || !link || !sameType(values[link.field], value)) continue;
    record.remember({ kind: "preset", serial, preset, values: { ...values, [link.field]: value } });
  }
}

function isSettingValue(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** A value unknown so far takes any type; a known one only its own. */
function sameType(known: unknown, value: unknown): boolean {
  return known === undefined || known === null || typeof known === typeof value;
}

import { PRESETS, type PresetIdentifier } from "../../../cloud/index.js";
import { emsTimedCharge, emsTimedDischarge, emsTimedExport, plantAware } from "./ems-timed.js";
import {
  generatorMode,
  gridSettings,
  parallelSettings,
  plantEmsEnableControl,
  smartLoad,
  winterBatteryConditioning,
} from "./internal.js";
import { batteryOperatingRange, ecoMode, pauseBattery, resetToDefaults } from "./mapped.js";
import { timedCharge, timedDischarge, timedExport } from "./timed.js";
import type { PresetDefinition } from "./types.js";

/** The 13 presets of the reference, in legacy ID order. */
export const PRESET_DEFINITIONS: readonly PresetDefinition[] = [
  ecoMode,
  plantAware(timedCharge, emsTimedCharge),
  plantAware(timedDischarge, emsTimedDischarge),
  plantAware(timedExport, emsTimedExport),
  batteryOperatingRange,
  resetToDefaults,
  winterBatteryConditioning,
  plantEmsEnableControl,
  gridSettings,
  parallelSettings,
  generatorMode,
  smartLoad,
  pauseBattery,
];

export const legacyId = (identifier: PresetIdentifier): number => PRESETS[identifier];

/** A preset by its identifier (`timed-charge`) or legacy ID (`1`). */
export function findPreset(reference: string): PresetDefinition | undefined {
  const trimmed = reference.trim();
  return PRESET_DEFINITIONS.find(
    (preset) =>
      preset.identifier === trimmed || (/^\d+$/.test(trimmed) && legacyId(preset.identifier) === Number(trimmed)),
  );
}

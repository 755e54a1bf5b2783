import type { PresetIdentifier } from "../../cloud/index.js";
import {
  type ControlMap,
  checkWritable,
  decodeSetting,
  encodeSetting,
  type MappedRegister,
  type PresetFieldKey,
  type RegisterFile,
} from "../../local/index.js";
import type { InverterControl } from "../inverter-control/index.js";

/** What the inverter answers a single-register write: the word it kept (echoed), or a refusal (an error response). */
export type LanWriteAnswer =
  | { readonly ok: true; readonly value: number }
  | { readonly ok: false; readonly reason: string };

/**
 * An inverter's settings as its holding registers, over the SAME settings the cloud serves: a
 * value written over the LAN is what the cloud reads, and the reverse. Registers outside the
 * model's allowlist are refused, as the real inverter refuses registers it does not take.
 */
export interface LanSettings {
  /** Writes each offered setting's value into the controller's holding registers. */
  encodeInto(file: RegisterFile): void;
  write(register: number, word: number): LanWriteAnswer;
}

/** `grid-settings.export_limit_watts` -> the preset and its field. */
function splitKey(key: PresetFieldKey): { preset: PresetIdentifier; field: string } {
  const dot = key.indexOf(".");
  return { preset: key.slice(0, dot) as PresetIdentifier, field: key.slice(dot + 1) };
}

export function lanSettings(control: InverterControl, map: ControlMap): LanSettings {
  const mapped: MappedRegister[] = [...map.settings.values(), ...map.presetFields.values()];
  const byRegister = new Map(mapped.map((entry) => [entry.register, entry]));
  /** The value the cloud serves for the register: a setting, or a preset's own state. */
  const servedValue = (entry: MappedRegister) => {
    if ("settingId" in entry) return control.get(entry.settingId);
    const { preset, field } = splitKey(entry.key);
    return control.internalValue(preset, field);
  };
  return {
    encodeInto(file) {
      const holding = file.holdingSide;
      for (const entry of mapped) {
        const value = servedValue(entry);
        if (value === undefined) continue;
        try {
          holding.u16(entry.register, encodeSetting(entry, value));
        } catch {
          // A value the register cannot hold (none the listing's rules let in) reads as 0.
          holding.u16(entry.register, 0);
        }
      }
    },
    write(register, word) {
      const entry = byRegister.get(register);
      try {
        checkWritable(map, register);
      } catch (error) {
        return { ok: false, reason: (error as Error).message };
      }
      if (!entry) return { ok: false, reason: `holding register ${register} holds no setting` };
      let value: boolean | number | string;
      try {
        value = decodeSetting(entry, word);
      } catch (error) {
        return { ok: false, reason: (error as Error).message };
      }
      let answer: ReturnType<InverterControl["writeFromLan"]>;
      if ("settingId" in entry) {
        answer = control.writeFromLan(entry.settingId, value, entry.rules);
      } else {
        const { preset, field } = splitKey(entry.key);
        answer = control.writeInternalFromLan(preset, field, value, entry.rules);
      }
      if (!answer.success) return { ok: false, reason: answer.message };
      return { ok: true, value: encodeSetting(entry, answer.value) };
    },
  };
}

import { presetDescriptor, settingDescriptor } from "../../cloud/index.js";
import type { PresetDescriptor, SettingDescriptor } from "../../vocabulary/index.js";
import type { InverterControl } from "./inverter-control.js";

/**
 * The simulated inverter's listing in the daemon's words, read as the cloud's adapter reads the
 * cloud's answer (the simulator speaks the cloud's contract; what runs it outside, the backtest's
 * replayed inverter, need not).
 */
export function listingOf(inverter: InverterControl): {
  readonly settings: SettingDescriptor[];
  readonly presets: PresetDescriptor[];
} {
  return {
    settings: inverter.settingsList().map((setting) => settingDescriptor.parse(setting)),
    presets: inverter.presetsList().map((preset) => presetDescriptor.parse(preset)),
  };
}

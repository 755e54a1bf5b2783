import { InverterControl, type SettingValue } from "../../../src/simulator/inverter-control/index.js";
import { sequence } from "../../../src/simulator/random.js";

export const FULL_POWER = "full-power-discharge-in-eco-mode";

export function inverter(options: { flags?: readonly string[]; seed?: number } = {}): InverterControl {
  return new InverterControl({ serial: "FD2212G123", flags: options.flags ?? [], random: sequence(options.seed ?? 1) });
}

/** Every write the inverter applies, in order. */
export function recordWrites(control: InverterControl): [number, SettingValue][] {
  const writes: [number, SettingValue][] = [];
  control.onChange((id, value) => writes.push([id, value]));
  return writes;
}

import { numericValue, parseRules } from "../validation/index.js";
import type { PresetDescriptor } from "../vocabulary/index.js";

/*
 * A value a device holds only in steps (`multiple_of:N`: over the LAN a battery power limit is a
 * C-rate word, ~95 W a step on a 9.5 kWh pack) is taken as the nearest step before it is checked,
 * compared with what the device holds, or sent: 2600 W asked and 2565 W read back is the same
 * word, so an optimiser that asks for it every cycle writes it once.
 */

/** The step a rule list gives, if any. */
function stepOf(rules: readonly string[]): number | undefined {
  const rule = parseRules(rules).find((one) => one.kind === "multiple_of");
  return rule?.kind === "multiple_of" ? rule.step : undefined;
}

/** The value as the nearest multiple of the rules' step; unchanged when they have none or it is no number. */
export function toStep<T>(rules: readonly string[], value: T): T | number {
  const step = stepOf(rules);
  const number = numericValue(value);
  if (step === undefined || number === undefined) return value;
  return Math.round(number / step) * step;
}

/** A preset's top-level fields, each one whose parameter has a step taken to the nearest. */
export function presetToSteps(
  descriptor: PresetDescriptor,
  fields: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, toStep(descriptor.parameters[key]?.validation ?? [], value)]),
  );
}

import type { PresetDescriptor } from "../cloud/schemas/inverter-control.js";
import type { PresetChange } from "../cloud/sections/inverter-control.js";
import type { ChangeOutcome } from "./change.js";
import { describeFailure } from "./cloud-failure.js";
import { type ChangeContext, callOptions } from "./context.js";
import type { ControlledInverter } from "./devices.js";
import { failed, MAY_OR_MAY_NOT, refused, succeeded } from "./outcome.js";
import { findPreset, presetProblems } from "./preset-rules.js";
import { containsValues, slotsByNumber } from "./same-value.js";

type Fields = Readonly<Record<string, unknown>>;

interface PresetTarget {
  readonly serial: string;
  readonly descriptor: PresetDescriptor;
  /** The identifier to send: the string ID, or the legacy numeric one for older listings. */
  readonly key: string | number;
  readonly fields: Fields;
}

/** Validate against the listed parameters, send with force false, and read the values back. */
export async function changePreset(
  context: ChangeContext,
  inverter: ControlledInverter,
  reference: string,
  fields: Fields,
): Promise<ChangeOutcome> {
  const descriptor = findPreset(inverter.presets, reference);
  if (!descriptor) {
    const listed = inverter.presets.map((preset) => preset.identifier ?? String(preset.id));
    return refused(
      listed.length === 0
        ? `the presets of inverter ${inverter.serial} could not be read yet, so the change cannot be checked: try again later`
        : `preset ${reference} is not one inverter ${inverter.serial} lists (it lists: ${listed.join(", ")})`,
    );
  }
  const problems = presetProblems(descriptor, fields);
  if (problems) return refused(problems);
  const target: PresetTarget = {
    serial: inverter.serial,
    descriptor,
    key: descriptor.identifier ?? descriptor.id,
    fields,
  };

  let answer: PresetChange;
  try {
    // force false: the service writes only the settings whose value differs.
    answer = await context.client.inverterControl.modifyPreset(target.serial, target.key, fields, {
      ...callOptions(context),
      force: false,
    });
  } catch (error) {
    const failure = describeFailure(error);
    if (!failure.mayHaveApplied) return failed(`${descriptor.name} not changed: ${failure.message}`);
    return readBack(context, target, { success: false, message: failure.message });
  }
  return readBack(context, target, answer);
}

function matches(sent: Fields, values: Fields): boolean {
  return Object.entries(sent).every(([key, value]) =>
    key === "slots"
      ? containsValues(slotsByNumber(values.slots), slotsByNumber(value))
      : containsValues(values[key], value),
  );
}

/**
 * A preset changes several settings, and a failure answer may come after some were written, so
 * the values as read decide in every case.
 */
async function readBack(context: ChangeContext, target: PresetTarget, answer: PresetChange): Promise<ChangeOutcome> {
  const { descriptor } = target;
  const said = answer.message ?? (answer.success ? "applied" : "failed");
  let values: Fields;
  try {
    values = await context.client.inverterControl.presetValues(target.serial, String(target.key), callOptions(context));
  } catch (error) {
    const why = describeFailure(error).message;
    return answer.success
      ? succeeded(`${descriptor.name} applied (${said}); reading it back failed (${why})`, { verified: false })
      : failed(`${descriptor.name}: ${said}, and reading it back failed (${why}): ${MAY_OR_MAY_NOT}`);
  }
  if (matches(target.fields, values)) {
    return succeeded(
      answer.success
        ? `${descriptor.name} applied`
        : `${descriptor.name} applied (${said}, but reading it back confirms it)`,
      { verified: true, value: values },
    );
  }
  return answer.success
    ? succeeded(`${descriptor.name} applied (${said}), but reading it back shows other values`, {
        verified: false,
        value: values,
      })
    : failed(`${descriptor.name} not (fully) applied: ${said}`, { value: values });
}

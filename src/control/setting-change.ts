import type { RemoteControlResult } from "../cloud/results.js";
import type { SettingValue as DeviceValue, SettingDescriptor } from "../cloud/schemas/inverter-control.js";
import type { ChangeOutcome, SettingValue } from "./change.js";
import { describeFailure } from "./cloud-failure.js";
import { type ChangeContext, callOptions } from "./context.js";
import type { ControlledInverter } from "./devices.js";
import { failed, MAY_OR_MAY_NOT, refused, shown, skipped, succeeded } from "./outcome.js";
import { rejectionText } from "./remote-codes.js";
import { sameValue } from "./same-value.js";
import { checkSetting, isWriteOnly } from "./setting-rules.js";

interface SettingTarget {
  readonly serial: string;
  readonly descriptor: SettingDescriptor;
  readonly value: SettingValue;
}

/** What went wrong with the write, kept for the message after reading back. */
interface FirstAnswer {
  readonly code?: number;
  readonly why: string;
}

function isSettingValue(value: DeviceValue | undefined): value is SettingValue {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** Validate, skip if unchanged, write once, and read back when the answer leaves it open. */
export async function changeSetting(
  context: ChangeContext,
  inverter: ControlledInverter,
  settingId: number,
  requested: SettingValue,
): Promise<ChangeOutcome> {
  const descriptor = inverter.settings.find((setting) => setting.id === settingId);
  if (!descriptor) {
    return refused(
      inverter.settings.length === 0
        ? `the settings of inverter ${inverter.serial} could not be read yet, so the change cannot be checked: try again later`
        : `setting ${settingId} is not one inverter ${inverter.serial} lists`,
    );
  }
  const check = checkSetting(descriptor, requested);
  if (!check.ok) return refused(check.reason);
  if (check.unknownRules.length > 0) {
    context.logger.warn(
      { serial: inverter.serial, settingId, rules: check.unknownRules },
      "setting has validation rules this version does not know; they were not checked",
    );
  }
  const target: SettingTarget = { serial: inverter.serial, descriptor, value: check.value };
  if (!isWriteOnly(descriptor)) {
    const known = context.cache.get(target.serial, settingId);
    if (known !== undefined && sameValue(known, target.value)) {
      return skipped(`${descriptor.name} is already ${shown(known)}: nothing sent`, known);
    }
  }
  return write(context, target);
}

async function write(context: ChangeContext, target: SettingTarget): Promise<ChangeOutcome> {
  const { serial, descriptor, value } = target;
  let answer: RemoteControlResult<DeviceValue>;
  try {
    answer = await context.client.inverterControl.writeSetting(serial, descriptor.id, value, callOptions(context));
  } catch (error) {
    const failure = describeFailure(error);
    if (failure.mayHaveApplied) return readBack(context, target, { why: failure.message });
    context.cache.forget(serial, descriptor.id);
    return failed(`${descriptor.name} not changed: ${failure.message}`);
  }
  if (answer.ok) {
    const kept = isSettingValue(answer.value) ? answer.value : value;
    context.cache.remember(serial, descriptor.id, kept);
    return sameValue(kept, value)
      ? succeeded(`${descriptor.name} set to ${shown(value)}`, { value: kept, verified: true })
      : succeeded(`${descriptor.name} written; the inverter kept ${shown(kept)} (asked for ${shown(value)})`, {
          value: kept,
          verified: false,
        });
  }
  if (answer.mayHaveApplied) return readBack(context, target, { code: answer.code, why: rejectionText(answer) });
  context.cache.forget(serial, descriptor.id);
  return failed(`${descriptor.name} not changed: ${rejectionText(answer)}`, { code: answer.code });
}

/** The write may have happened: the setting as read now decides, and nothing is written again. */
async function readBack(context: ChangeContext, target: SettingTarget, first: FirstAnswer): Promise<ChangeOutcome> {
  const { serial, descriptor, value } = target;
  context.cache.forget(serial, descriptor.id);
  const code = first.code === undefined ? {} : { code: first.code };
  if (isWriteOnly(descriptor)) {
    return failed(`${descriptor.name}: ${first.why}; ${MAY_OR_MAY_NOT} (it cannot be read back)`, code);
  }
  let read: RemoteControlResult<DeviceValue>;
  try {
    read = await context.client.inverterControl.readSetting(serial, descriptor.id, callOptions(context));
  } catch (error) {
    return failed(
      `${descriptor.name}: ${first.why}, and reading it back failed (${describeFailure(error).message}): ${MAY_OR_MAY_NOT}`,
      code,
    );
  }
  if (!read.ok || !isSettingValue(read.value)) {
    const why = read.ok ? `it read back as ${shown(read.value)}` : rejectionText(read);
    return failed(`${descriptor.name}: ${first.why}, and reading it back failed (${why}): ${MAY_OR_MAY_NOT}`, code);
  }
  context.cache.remember(serial, descriptor.id, read.value);
  if (sameValue(read.value, value)) {
    return succeeded(`${descriptor.name} set to ${shown(value)} (${first.why}, but reading it back confirms it)`, {
      ...code,
      value: read.value,
      verified: true,
    });
  }
  return failed(`${descriptor.name} not changed: ${first.why}, and reading it back shows ${shown(read.value)}`, {
    ...code,
    value: read.value,
  });
}

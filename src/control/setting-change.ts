import type { ControlCall, HeldValue, PathOutcome } from "../sources/index.js";
import type { SettingDescriptor } from "../vocabulary/index.js";
import type { ChangeOutcome, SettingValue } from "./change.js";
import { describeFailure, failureText } from "./cloud-failure.js";
import { type ChangeContext, callOptions } from "./context.js";
import type { ControlledInverter } from "./devices.js";
import { type Reading, sendChange, settle } from "./in-flight.js";
import { failed, MAY_OR_MAY_NOT, refused, seconds, shown, skipped, succeeded, unknown } from "./outcome.js";
import { sameValue } from "./same-value.js";
import { checkSetting, isWriteOnly } from "./setting-rules.js";
import { toStep } from "./steps.js";
import { codeOf, type Verdict, verdictOf } from "./verdict.js";

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

function isSettingValue(value: HeldValue | undefined): value is SettingValue {
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
  const check = checkSetting(descriptor, toStep(descriptor.validation_rules, requested));
  if (!check.ok) return refused(check.reason);
  if (check.unknownRules.length > 0) {
    context.logger.warn(
      { serial: inverter.serial, settingId, rules: check.unknownRules },
      "setting has validation rules this version does not know; they were not checked",
    );
  }
  const target: SettingTarget = { serial: inverter.serial, descriptor, value: check.value };
  if (!isWriteOnly(descriptor)) {
    const known = context.state.freshSetting(target.serial, settingId) ?? (await readFirstOnLan(context, target));
    if (known !== undefined && sameValue(known, target.value)) {
      return skipped(`${descriptor.name} is already ${shown(known)}: nothing sent`, known);
    }
  }
  const spent = context.spend(target.serial, 1);
  if (spent !== undefined) return refused(spent);
  return write(context, target);
}

/**
 * Over the LAN a read is cheap and a write wears the device's memory: a value not known is read
 * first, so that one that already holds is not written. Through the cloud the write is sent as
 * before (a read costs as much as the write). A read that fails leaves the write to go.
 */
async function readFirstOnLan(context: ChangeContext, target: SettingTarget): Promise<SettingValue | undefined> {
  if (context.control.pathOf(target.serial) !== "local") return undefined;
  try {
    const read = await context.control.inverters.readSetting(target.serial, target.descriptor.id, callOptions(context));
    if (read.outcome !== "done" || !isSettingValue(read.value)) return undefined;
    context.state.remember({
      kind: "setting",
      serial: target.serial,
      settingId: target.descriptor.id,
      value: read.value,
    });
    return read.value;
  } catch {
    return undefined;
  }
}

async function write(context: ChangeContext, target: SettingTarget): Promise<ChangeOutcome> {
  const { serial, descriptor, value } = target;
  const sent = await sendChange(context, (options) =>
    context.control.inverters.writeSetting(serial, descriptor.id, value, options),
  );
  if ("answered" in sent) return afterAnswer(context, target, verdictOf(sent.answered));
  const read = isWriteOnly(descriptor) ? undefined : (options: ControlCall) => readOnce(context, target, options);
  const settlement = await settle(context, sent.pending, read, failureText);
  if (settlement.kind === "answered") return afterAnswer(context, target, verdictOf(settlement.answered));
  context.lateAnswer(sent.pending.then((late) => lateOutcome(context, target, verdictOf(late))));
  const waited = `no answer within ${seconds(context.timing.answerMs)}`;
  if (settlement.kind === "confirmed") {
    context.state.remember({ kind: "setting", serial, settingId: descriptor.id, value: settlement.reading.value });
    return succeeded(`${descriptor.name} set to ${shown(value)} (${waited}, but reading it back confirms it)`, {
      value: settlement.reading.value,
      verified: true,
    });
  }
  context.state.forgetSetting(serial, descriptor.id);
  const seen = settlement.reading
    ? `, and reading it back for ${seconds(context.timing.settleMs)} more still shows ${shown(settlement.reading.value)}`
    : isWriteOnly(descriptor)
      ? " (it cannot be read back)"
      : `, and reading it back failed (${settlement.readError ?? "no answer"})`;
  return unknown(
    `${descriptor.name}: ${waited}${seen}: ${MAY_OR_MAY_NOT}; its answer, if it comes, goes into the audit log`,
  );
}

/** The device answered (in time or while reading back): done, refused, or read back to decide. */
async function afterAnswer(
  context: ChangeContext,
  target: SettingTarget,
  verdict: Verdict<HeldValue>,
): Promise<ChangeOutcome> {
  const { serial, descriptor, value } = target;
  if (verdict.kind === "open") return readBack(context, target, verdict);
  if (verdict.kind === "refused") {
    context.state.forgetSetting(serial, descriptor.id);
    return failed(`${descriptor.name} not changed: ${verdict.why}`, codeOf(verdict));
  }
  const kept = isSettingValue(verdict.value) ? verdict.value : value;
  context.state.remember({ kind: "setting", serial, settingId: descriptor.id, value: kept });
  return sameValue(kept, value)
    ? succeeded(`${descriptor.name} set to ${shown(value)}`, { value: kept, verified: true })
    : succeeded(`${descriptor.name} written; the inverter kept ${shown(kept)} (asked for ${shown(value)})`, {
        value: kept,
        verified: false,
      });
}

/** What a write's answer says when it comes after the outcome was given: recorded as it is. */
function lateOutcome(context: ChangeContext, target: SettingTarget, verdict: Verdict<HeldValue>): ChangeOutcome {
  const { serial, descriptor, value } = target;
  const late = `late answer to the change of ${descriptor.name} to ${shown(value)}`;
  if (verdict.kind === "done") {
    const kept = isSettingValue(verdict.value) ? verdict.value : value;
    context.state.remember({ kind: "setting", serial, settingId: descriptor.id, value: kept });
    return succeeded(`${late}: ${descriptor.name} set to ${shown(kept)}`, {
      value: kept,
      verified: sameValue(kept, value),
    });
  }
  context.state.forgetSetting(serial, descriptor.id);
  return verdict.kind === "refused"
    ? failed(`${late}: not changed: ${verdict.why}`, codeOf(verdict))
    : unknown(`${late}: ${verdict.why}; ${MAY_OR_MAY_NOT}`, codeOf(verdict));
}

/** One read of the setting, for reading back while a write is in flight. */
async function readOnce(
  context: ChangeContext,
  target: SettingTarget,
  options: ControlCall,
): Promise<Reading<SettingValue>> {
  const read = await context.control.inverters.readSetting(target.serial, target.descriptor.id, options);
  if (read.outcome !== "done") throw new Error(read.reason);
  if (!isSettingValue(read.value)) throw new Error(`it read back as ${shown(read.value)}`);
  return { matches: sameValue(read.value, target.value), value: read.value };
}

/** The write may have happened: the setting as read now decides, and nothing is written again. */
async function readBack(context: ChangeContext, target: SettingTarget, first: FirstAnswer): Promise<ChangeOutcome> {
  const { serial, descriptor, value } = target;
  context.state.forgetSetting(serial, descriptor.id);
  const code = first.code === undefined ? {} : { code: first.code };
  if (isWriteOnly(descriptor)) {
    return unknown(`${descriptor.name}: ${first.why}; ${MAY_OR_MAY_NOT} (it cannot be read back)`, code);
  }
  let read: PathOutcome<HeldValue>;
  try {
    read = await context.control.inverters.readSetting(serial, descriptor.id, callOptions(context));
  } catch (error) {
    return unknown(
      `${descriptor.name}: ${first.why}, and reading it back failed (${describeFailure(error).message}): ${MAY_OR_MAY_NOT}`,
      code,
    );
  }
  if (read.outcome !== "done" || !isSettingValue(read.value)) {
    const why = read.outcome === "done" ? `it read back as ${shown(read.value)}` : read.reason;
    return unknown(`${descriptor.name}: ${first.why}, and reading it back failed (${why}): ${MAY_OR_MAY_NOT}`, code);
  }
  context.state.remember({ kind: "setting", serial, settingId: descriptor.id, value: read.value });
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

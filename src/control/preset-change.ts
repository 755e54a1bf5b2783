import type { ControlCall } from "../sources/index.js";
import type { PresetDescriptor } from "../vocabulary/index.js";
import type { ChangeOutcome } from "./change.js";
import { failureText } from "./cloud-failure.js";
import { type ChangeContext, callOptions } from "./context.js";
import type { ControlledInverter } from "./devices.js";
import { type Reading, sendChange, settle } from "./in-flight.js";
import { failed, MAY_OR_MAY_NOT, refused, seconds, skipped, succeeded, unknown } from "./outcome.js";
import { differencesText } from "./preset-differences.js";
import { findPreset, presetProblems } from "./preset-rules.js";
import { containsValues, slotsByNumber } from "./same-value.js";
import { presetToSteps } from "./steps.js";
import { codeOf, type Verdict, verdictOf } from "./verdict.js";
import { valuesChanged, valuesIn } from "./write-budget.js";

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
  requested: Fields,
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
  const fields = presetToSteps(descriptor, requested);
  const problems = presetProblems(descriptor, fields);
  if (problems) return refused(problems);
  const target: PresetTarget = {
    serial: inverter.serial,
    descriptor,
    key: descriptor.identifier ?? descriptor.id,
    fields,
  };
  // Through the cloud the values last read or applied, while fresh, spare a write that changes nothing.
  const held =
    (await readFirstOnLan(context, target)) ?? context.state.freshPreset(target.serial, identifierOf(target));
  const changes = held === undefined ? valuesIn(fields) : valuesChanged(held, fields);
  if (held !== undefined && changes === 0)
    return skipped(`${descriptor.name} already holds these values: nothing sent`, held);
  const spent = context.spend(target.serial, changes);
  if (spent !== undefined) return refused(spent);

  // Every path writes only the fields whose value differs (the cloud: force false).
  const sent = await sendChange(context, (options) =>
    context.control.inverters.applyPreset(target.serial, target.key, fields, options),
  );
  if ("answered" in sent) return afterAnswer(context, target, verdictOf(sent.answered));
  const read = (options: ControlCall) => readOnce(context, target, options);
  const settlement = await settle(context, sent.pending, read, failureText);
  if (settlement.kind === "answered") return afterAnswer(context, target, verdictOf(settlement.answered));
  context.lateAnswer(sent.pending.then((late) => lateOutcome(target, verdictOf(late))));
  const waited = `no answer within ${seconds(context.timing.answerMs)}`;
  if (settlement.kind === "confirmed") {
    return succeeded(`${descriptor.name} applied (${waited}, but reading it back confirms it)`, {
      verified: true,
      value: settlement.reading.value,
    });
  }
  const seen = settlement.reading
    ? `, and reading it back for ${seconds(context.timing.settleMs)} more still shows ${differencesText(fields, settlement.reading.value)}`
    : `, and reading it back failed (${settlement.readError ?? "no answer"})`;
  return unknown(
    `${descriptor.name}: ${waited}${seen}: ${MAY_OR_MAY_NOT}; its answer, if it comes, goes into the audit log`,
  );
}

/**
 * Over the LAN a read is cheap and a write wears the device's memory: the preset's values are
 * read first, so that one that already holds them is not written, and only the values that
 * differ count against the daily budget. Through the cloud, force false does that at the
 * service. Undefined when not read (the cloud's path, or the read failed): then all count.
 */
async function readFirstOnLan(context: ChangeContext, target: PresetTarget): Promise<Fields | undefined> {
  if (context.control.pathOf(target.serial) !== "local") return undefined;
  try {
    return (await readOnce(context, target, callOptions(context))).value;
  } catch {
    return undefined;
  }
}

function matches(sent: Fields, values: Fields): boolean {
  return Object.entries(sent).every(([key, value]) =>
    key === "slots"
      ? containsValues(slotsByNumber(values.slots), slotsByNumber(value))
      : containsValues(values[key], value),
  );
}

/** The name the preset's values are kept under in the control state. */
const identifierOf = (target: PresetTarget): string => target.descriptor.identifier ?? String(target.key);

async function readOnce(context: ChangeContext, target: PresetTarget, options: ControlCall): Promise<Reading<Fields>> {
  const values = await context.control.inverters.readPreset(target.serial, String(target.key), options);
  const preset = identifierOf(target);
  context.state.remember({ kind: "preset", serial: target.serial, preset, values });
  return { matches: matches(target.fields, values), value: values };
}

/**
 * Done or open, the values as read decide: a preset changes several settings, and a failure may
 * come after some were written. A refusal (-2 offline, -7 locked) changed nothing, as for a setting.
 */
async function afterAnswer(
  context: ChangeContext,
  target: PresetTarget,
  verdict: Verdict<undefined>,
): Promise<ChangeOutcome> {
  const { descriptor } = target;
  if (verdict.kind === "refused") return failed(`${descriptor.name} not changed: ${verdict.why}`, codeOf(verdict));
  const code = codeOf(verdict);
  let reading: Reading<Fields>;
  try {
    reading = await readOnce(context, target, callOptions(context));
  } catch (error) {
    const why = failureText(error);
    return verdict.kind === "done"
      ? succeeded(`${descriptor.name} applied; reading it back failed (${why})`, { verified: false })
      : unknown(`${descriptor.name}: ${verdict.why}, and reading it back failed (${why}): ${MAY_OR_MAY_NOT}`, code);
  }
  if (reading.matches) {
    return succeeded(
      verdict.kind === "done"
        ? `${descriptor.name} applied`
        : `${descriptor.name} applied (${verdict.why}, but reading it back confirms it)`,
      { ...code, verified: true, value: reading.value },
    );
  }
  const differences = differencesText(target.fields, reading.value);
  return verdict.kind === "done"
    ? succeeded(`${descriptor.name} applied, but reading it back shows ${differences}`, {
        verified: false,
        value: reading.value,
      })
    : failed(
        `${descriptor.name} not (fully) applied: ${verdict.why}; reading it back shows ${differences}; ${RETRY_SAFE}`,
        {
          ...code,
          value: reading.value,
        },
      );
}

/** The write was answered, so nothing of it is still on its way; and force false makes sending it again harmless. */
const RETRY_SAFE =
  "trying again is safe: the preset is sent with force false, so only the fields that still differ are written";

/** What a preset's answer says when it comes after the outcome was given: recorded as it is. */
function lateOutcome(target: PresetTarget, verdict: Verdict<undefined>): ChangeOutcome {
  const late = `late answer to the change of ${target.descriptor.name}`;
  if (verdict.kind === "done") return succeeded(`${late}: applied`, { verified: false });
  return verdict.kind === "refused"
    ? failed(`${late}: not changed: ${verdict.why}`, codeOf(verdict))
    : unknown(`${late}: ${verdict.why}; ${MAY_OR_MAY_NOT}`, codeOf(verdict));
}

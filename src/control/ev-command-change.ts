import type { ChargerAnswer, ControlCall } from "../sources/index.js";
import { CHARGER_COMMANDS, type ChargerCommandId } from "../vocabulary/index.js";
import type { ChangeOutcome } from "./change.js";
import { unconfirmedOverOcpp } from "./charger-actions.js";
import { chargerCommandOf, chargerOutcome } from "./charger-commands.js";
import { describeFailure, failureText } from "./cloud-failure.js";
import { type ChangeContext, callOptions } from "./context.js";
import type { ControlledCharger } from "./devices.js";
import { verifierFor } from "./ev-verify.js";
import { type Settled, sendChange, settle } from "./in-flight.js";
import { failed, MAY_OR_MAY_NOT, refused, seconds, shown, succeeded, unknown } from "./outcome.js";
import { describeIssues } from "./zod-problems.js";

interface FirstAnswer {
  readonly code?: number;
  readonly why: string;
}

/** The answer's code, for the record, when the path gave one. */
function codeOf(answer: ChargerAnswer): { code?: number } {
  return answer.code === undefined ? {} : { code: answer.code };
}

/** Validate against the command's schema and the charger's supported commands, send once, verify where possible. */
export async function sendEvCommand(
  context: ChangeContext,
  charger: ControlledCharger,
  command: ChargerCommandId,
  request: Readonly<Record<string, unknown>>,
): Promise<ChangeOutcome> {
  const name = charger.alias ? `${charger.alias} (${charger.uuid})` : `charger ${charger.uuid}`;
  if (!charger.commands.includes(command)) {
    return refused(`${name} does not support ${command}`);
  }
  const schema = CHARGER_COMMANDS[command];
  const parsed = schema.safeParse(request);
  if (!parsed.success) return refused(`${command}: ${describeIssues(parsed.error, schema)}`);
  const unoffered = modeNotOffered(context, charger.uuid, command, parsed.data);
  if (unoffered) return refused(`${name} ${unoffered}`);

  // A charger on a path of its own (OCPP, Modbus) takes the commands that path carries.
  const own = chargerCommandOf(command, parsed.data);
  const chargers = context.control.chargers;
  // A restart or an unlock goes over OCPP only as a confirmed charger action (charger-actions.ts).
  const unconfirmed = unconfirmedOverOcpp(command);
  if (unconfirmed && chargers?.carries(charger.uuid, unconfirmed.kind)) return refused(`${name}: ${unconfirmed.why}`);
  if (own && chargers?.carries(charger.uuid, own.kind))
    return chargerOutcome(command, own, await chargers.command(charger.uuid, own));

  const sent = await sendChange(context, (options) =>
    context.control.cloudOnly.evChargers.send(charger.uuid, command, parsed.data, options),
  );
  if ("answered" in sent) return afterAnswer(context, charger.uuid, command, parsed.data, sent.answered);
  const verifier = verifierFor(command);
  const read = verifier
    ? (options: ControlCall) => verifier(context.control, charger.uuid, parsed.data, options)
    : undefined;
  const settlement = await settle(context, sent.pending, read, failureText);
  if (settlement.kind === "answered")
    return afterAnswer(context, charger.uuid, command, parsed.data, settlement.answered);
  context.lateAnswer(sent.pending.then((late) => lateOutcome(command, late)));
  const waited = `no answer within ${seconds(context.timing.answerMs)}`;
  if (settlement.kind === "confirmed") {
    return succeeded(`${command} done (${waited}, but reading it back confirms it)`, {
      verified: true,
      value: settlement.reading.value,
    });
  }
  const seen = settlement.reading
    ? `, and reading it back for ${seconds(context.timing.settleMs)} more still shows ${shown(settlement.reading.value)}`
    : read
      ? `, and reading it back failed (${settlement.readError ?? "no answer"})`
      : " (it cannot be read back)";
  return unknown(`${command}: ${waited}${seen}: ${MAY_OR_MAY_NOT}; its answer, if it comes, goes into the audit log`);
}

/** A mode the charger does not offer, by the modes its change-mode data last listed; none when not known. */
function modeNotOffered(
  context: ChangeContext,
  uuid: string,
  command: ChargerCommandId,
  request: Readonly<Record<string, unknown>>,
): string | undefined {
  if (command !== "change-mode") return undefined;
  const offered = context.state.values(uuid).evCommands?.["change-mode"]?.available ?? [];
  const mode = request.mode;
  if (offered.length === 0 || typeof mode !== "string" || offered.includes(mode)) return undefined;
  return `offers the modes ${offered.join(", ")}; not ${mode}`;
}

/** The charger answered (in time, or while reading back went on). */
async function afterAnswer(
  context: ChangeContext,
  uuid: string,
  command: ChargerCommandId,
  sent: Readonly<Record<string, unknown>>,
  answered: Settled<ChargerAnswer>,
): Promise<ChangeOutcome> {
  if (!answered.ok) {
    const failure = describeFailure(answered.error);
    if (!failure.mayHaveApplied) return failed(`${command} not done: ${failure.message}`);
    return readBack(context, uuid, command, sent, { why: failure.message });
  }
  const answer = answered.answer;
  switch (answer.outcome) {
    case "done":
      return verifierFor(command)
        ? readBack(context, uuid, command, sent, undefined, codeOf(answer))
        : succeeded(`${command} done`, { ...codeOf(answer), verified: true });
    case "open":
      return readBack(context, uuid, command, sent, { ...codeOf(answer), why: answer.reason });
    case "refused":
      return failed(`${command} not done: ${answer.reason}`, codeOf(answer));
  }
}

/** What the charger's answer says when it comes after the outcome was given: recorded as it is. */
function lateOutcome(command: ChargerCommandId, answered: Settled<ChargerAnswer>): ChangeOutcome {
  const late = `late answer to ${command}`;
  if (!answered.ok) return unknown(`${late}: ${describeFailure(answered.error).message}; ${MAY_OR_MAY_NOT}`);
  const answer = answered.answer;
  switch (answer.outcome) {
    case "done":
      return succeeded(`${late}: done`, { ...codeOf(answer), verified: false });
    case "open":
      return unknown(`${late}: ${answer.reason}; ${MAY_OR_MAY_NOT}`, codeOf(answer));
    case "refused":
      return failed(`${late}: not done: ${answer.reason}`, codeOf(answer));
  }
}

/**
 * After a success, reading back verifies it; after an answer that leaves it open, reading back
 * decides. `first` is undefined after a success, whose code is `done`.
 */
async function readBack(
  context: ChangeContext,
  uuid: string,
  command: ChargerCommandId,
  sent: Readonly<Record<string, unknown>>,
  first: FirstAnswer | undefined,
  done: { code?: number } = {},
): Promise<ChangeOutcome> {
  const code = first ? (first.code === undefined ? {} : { code: first.code }) : done;
  const verifier = verifierFor(command);
  if (!verifier) return unknown(`${command}: ${first?.why ?? "sent"}; ${MAY_OR_MAY_NOT}`, code);
  try {
    const reading = await verifier(context.control, uuid, sent, callOptions(context));
    if (reading.matches) {
      const how = first ? ` (${first.why}, but reading it back confirms it)` : "";
      return succeeded(`${command} done${how}`, { ...code, verified: true, value: reading.value });
    }
    return first
      ? failed(`${command} not done: ${first.why}, and reading it back shows ${shown(reading.value)}`, {
          ...code,
          value: reading.value,
        })
      : succeeded(`${command} sent, but reading it back shows ${shown(reading.value)}`, {
          ...code,
          verified: false,
          value: reading.value,
        });
  } catch (error) {
    const why = describeFailure(error).message;
    return first
      ? unknown(`${command}: ${first.why}, and reading it back failed (${why}): ${MAY_OR_MAY_NOT}`, code)
      : succeeded(`${command} sent; reading it back failed (${why})`, { ...code, verified: false });
  }
}

import type { EvCommandResult } from "../cloud/results.js";
import { EV_COMMANDS, type EvCommandId } from "../cloud/schemas/ev-commands.js";
import type { ChangeOutcome } from "./change.js";
import { describeFailure } from "./cloud-failure.js";
import { type ChangeContext, callOptions } from "./context.js";
import type { ControlledCharger } from "./devices.js";
import { verifierFor } from "./ev-verify.js";
import { failed, MAY_OR_MAY_NOT, refused, shown, succeeded } from "./outcome.js";
import { describeIssues } from "./zod-problems.js";

interface FirstAnswer {
  readonly code?: number;
  readonly why: string;
}

function answerText(result: Extract<EvCommandResult, { ok: false }>): string {
  const reason = result.code === undefined ? result.reason : `${result.reason} (code ${result.code})`;
  return result.message && !result.reason.includes(result.message) ? `${reason}: ${result.message}` : reason;
}

/** Validate against the command's schema and the charger's supported commands, send once, verify where possible. */
export async function sendEvCommand(
  context: ChangeContext,
  charger: ControlledCharger,
  command: EvCommandId,
  request: Readonly<Record<string, unknown>>,
): Promise<ChangeOutcome> {
  const name = charger.alias ? `${charger.alias} (${charger.uuid})` : `charger ${charger.uuid}`;
  if (!charger.commands.includes(command)) {
    return refused(`${name} does not support ${command}`);
  }
  const schema = EV_COMMANDS[command].request;
  const parsed = schema.safeParse(request);
  if (!parsed.success) return refused(`${command}: ${describeIssues(parsed.error, schema)}`);
  const sent: Readonly<Record<string, unknown>> = parsed.data;

  let result: EvCommandResult;
  try {
    result = await context.client.evChargers.sendCommand(charger.uuid, command, parsed.data, callOptions(context));
  } catch (error) {
    const failure = describeFailure(error);
    if (!failure.mayHaveApplied) return failed(`${command} not done: ${failure.message}`);
    return readBack(context, charger.uuid, command, sent, { why: failure.message });
  }
  if (result.ok) {
    return verifierFor(command)
      ? readBack(context, charger.uuid, command, sent, undefined)
      : succeeded(`${command} done`, { code: result.code, verified: true });
  }
  if (result.mayHaveApplied)
    return readBack(context, charger.uuid, command, sent, { code: result.code, why: answerText(result) });
  return failed(`${command} not done: ${answerText(result)}`, result.code === undefined ? {} : { code: result.code });
}

/**
 * After a success, reading back verifies it; after an answer that leaves it open, reading back
 * decides. `first` is undefined after a success.
 */
async function readBack(
  context: ChangeContext,
  uuid: string,
  command: EvCommandId,
  sent: Readonly<Record<string, unknown>>,
  first: FirstAnswer | undefined,
): Promise<ChangeOutcome> {
  const code = first ? (first.code === undefined ? {} : { code: first.code }) : { code: 0 };
  const verifier = verifierFor(command);
  if (!verifier) return failed(`${command}: ${first?.why ?? "sent"}; ${MAY_OR_MAY_NOT}`, code);
  try {
    const reading = await verifier(context.client, uuid, sent, callOptions(context));
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
      ? failed(`${command}: ${first.why}, and reading it back failed (${why}): ${MAY_OR_MAY_NOT}`, code)
      : succeeded(`${command} sent; reading it back failed (${why})`, { ...code, verified: false });
  }
}

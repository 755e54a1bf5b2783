import type { Logger } from "../log/log.js";
import { oversized } from "../mqtt/index.js";
import type { RuleRunResult, RulesRuntime } from "../rules-runtime/index.js";
import { parseRulesCommand } from "./rules-commands.js";

/** The answer on `<base>/rules/result`. */
export interface RulesCommandAnswer {
  readonly entity: string;
  readonly ok: boolean;
  readonly code: null;
  readonly message: string;
  readonly run?: RuleRunResult;
}

/**
 * Answers a command to a rule's switch or button; true when it reached the rules (their state
 * is to be published again), false when it was refused before.
 */
export async function answerRulesCommand(
  entity: string,
  payload: string,
  context: {
    readonly runtime: RulesRuntime | undefined;
    /** A rules file is configured and its runtime is on its way: told to wait, not that there are none. */
    readonly starting: boolean;
    readonly logger: Logger;
    readonly answer: (body: RulesCommandAnswer) => Promise<void>;
  },
): Promise<boolean> {
  const { runtime, answer } = context;
  const result = (outcome: { ok: boolean; message: string; run?: RuleRunResult }) =>
    answer({
      entity,
      ok: outcome.ok,
      code: null,
      message: outcome.message,
      ...(outcome.run ? { run: outcome.run } : {}),
    });
  if (!runtime) {
    const message = context.starting
      ? "starting, try again in a few seconds: the rules are not loaded yet"
      : "no rules are loaded";
    await result({ ok: false, message });
    return false;
  }
  const tooBig = oversized(payload, "command");
  if (tooBig) {
    await result({ ok: false, message: tooBig });
    return false;
  }
  const parsed = parseRulesCommand(
    entity,
    payload,
    runtime.list().map((rule) => rule.name),
  );
  if (!parsed.ok) {
    await result(parsed);
    return false;
  }
  const { command } = parsed;
  try {
    if (command.kind === "enable") {
      runtime.setEnabled(command.rule, command.enabled);
      await result({ ok: true, message: `${command.rule} switched ${command.enabled ? "on" : "off"}` });
    } else {
      const run = await runtime.runNow(command.rule);
      await result({ ok: run.ok, message: run.message, run });
    }
  } catch (error) {
    context.logger.error({ err: error, rule: command.rule, command: command.kind }, "rule command failed");
    await result({ ok: false, message: `the command failed: ${(error as Error).message}` });
  }
  return true;
}

import { runRulesPlanCommand } from "../../src/commands/rules-plan.js";
import { capture } from "../helpers/capture.js";

/** `rules plan` through its command function: the exit code and what it printed. */
export async function runPlan(options: Parameters<typeof runRulesPlanCommand>[0]) {
  const out = capture();
  const err = capture();
  const code = await runRulesPlanCommand(options, out.stream, err.stream);
  return { code, out: out.text(), err: err.text() };
}

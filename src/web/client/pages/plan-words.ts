import type { PlanConflict, PlanContest, PlanHelp, PlanView } from "../../plan-view.js";
import { h } from "../dom.js";
import type { PlanFormat } from "./plan-format.js";

/** "preset timed-charge on the default inverter" as people say it: "the timed charge on the default inverter". */
function controlText(control: string): string {
  return `the ${control.replace(/^preset /, "").replace(/-/g, " ")}`;
}

/**
 * Each overlap of two rules' windows in words: what both act on, who wins and why, what is not
 * sent; or that they act on different things and both are sent.
 */
export function conflictWords(plan: PlanView, format: PlanFormat): HTMLElement | null {
  if (plan.conflicts.length === 0) return null;
  return h(
    "section",
    { class: "conflicts", "aria-labelledby": "plan-conflicts" },
    h("h3", { id: "plan-conflicts" }, "Conflicts"),
    h(
      "ul",
      {},
      ...plan.conflicts.map((conflict) =>
        h("li", { "data-rules": conflict.rules.join(" ") }, conflictText(conflict, plan.contests, format)),
      ),
    ),
  );
}

/** The contests over a control within an overlap of two rules' windows: none when they act on different controls. */
export function contestsIn(conflict: PlanConflict, contests: readonly PlanContest[]): PlanContest[] {
  const [a, b] = conflict.rules;
  return contests.filter(
    (contest) =>
      ((contest.winner === a && contest.loser === b) || (contest.winner === b && contest.loser === a)) &&
      contest.start < conflict.end &&
      contest.end >= conflict.start,
  );
}

function conflictText(conflict: PlanConflict, contests: readonly PlanContest[], format: PlanFormat): string {
  const [a, b] = conflict.rules;
  const when = format.span(conflict.start, conflict.end);
  const shared = contestsIn(conflict, contests);
  const controls = [...new Set(shared.map((contest) => contest.control))];
  const first = shared[0];
  if (!first)
    return `${when}: ${a} and ${b} both have a window open. They act on different controls, so both are sent.`;
  return `${when}: ${a} and ${b} both act on ${controls.map(controlText).join(" and ")}. ${first.winner} wins (${first.because}); ${first.loser}'s change to it is not sent while both windows are open.`;
}

/** An empty plan: where the rules go, where to start from, and where the cookbook is. */
export function emptyPlan(reason: string, help: PlanHelp | undefined): HTMLElement {
  const rulesFile = help?.rulesFile ?? "rules.yaml beside your configuration file";
  const configFile = help?.configFile ?? "the configuration file";
  return h(
    "section",
    { class: "plan-empty" },
    h("p", {}, `No plan: ${reason}. The plan shows what your rules will do over the next hours, once there are rules.`),
    h("h3", {}, "How to add rules"),
    h(
      "ol",
      {},
      h(
        "li",
        {},
        "Copy the example rules, ",
        h("code", {}, help?.example ?? "config/rules.example.yaml"),
        " (in the energy2mqtt package), to ",
        h("code", {}, rulesFile),
        ", and keep the rules you want.",
      ),
      h(
        "li",
        {},
        "Name it in ",
        h("code", {}, configFile),
        ": ",
        h("code", {}, "rules: rules.yaml"),
        " (relative to that file).",
      ),
      h(
        "li",
        {},
        "Check it with ",
        h("code", {}, "energy2mqtt check"),
        ", preview it with ",
        h("code", {}, "energy2mqtt rules plan"),
        ", then restart energy2mqtt.",
      ),
    ),
    h(
      "p",
      {},
      "Complete examples for Agile, Go, Flux, Economy 7 and the car: ",
      h(
        "a",
        { href: help?.docs ?? "https://github.com/energy2mqtt/energy2mqtt/blob/main/docs/rules.md" },
        "the tariff rules cookbook",
      ),
      ".",
    ),
  );
}

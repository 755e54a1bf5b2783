import { MODE_ACTIONS } from "../planners/optimise-windows.js";
import { type Action, actionKind, chargerCommand } from "./action-schema.js";
import { type Trigger, triggerKind, WINDOW_TRIGGERS } from "./trigger-schema.js";

/**
 * Which rule wins a control two rules act on, known from the rules file alone: the higher
 * priority, and between equal priorities the one whose `wins_over` names the other. Equal
 * priorities with no word on which wins are refused, since run now can open any window at any time.
 */

/** A rule as the file gives it; the checks of the whole also run before the rules' own transforms. */
export interface RuleShape {
  readonly name: string;
  readonly priority?: number;
  readonly wins_over?: readonly string[];
  readonly when: Trigger | readonly Trigger[];
  readonly do?: readonly Action[];
}

/** One control two rules both act on, and which of them wins it. */
export interface SharedControl {
  /** e.g. `setting 71 on the default inverter`. */
  readonly control: string;
  readonly winner: string;
  readonly loser: string;
  /** How the file says so: `priority 10 over 5`, or `wins_over, both priority 0`. */
  readonly because: string;
}

export interface OverlapProblem {
  /** Index of the rule the problem is reported at. */
  readonly rule: number;
  readonly key: "priority" | "wins_over";
  readonly message: string;
}

function triggersOf(rule: RuleShape): readonly Trigger[] {
  return Array.isArray(rule.when) ? rule.when : [rule.when as Trigger];
}

function hasWindow(rule: RuleShape): boolean {
  return triggersOf(rule).some((trigger) => (WINDOW_TRIGGERS as readonly string[]).includes(triggerKind(trigger)));
}

/** The actions a rule sends: its own, or an optimise rule's presets for each mode. */
function actionsOf(rule: RuleShape): readonly Action[] {
  if (rule.do !== undefined && rule.do.length > 0) return rule.do;
  return triggersOf(rule).some((trigger) => trigger.optimise !== undefined) ? Object.values(MODE_ACTIONS).flat() : [];
}

/**
 * The control an action acts on, as far as the file says: a setting named by its name and the same
 * setting named by its number are not matched here (the engine matches them when it runs).
 */
export function staticControl(action: Action): string | undefined {
  const inverter = action.inverter === undefined ? "the default inverter" : `inverter ${action.inverter}`;
  switch (actionKind(action)) {
    case "preset":
      return `preset ${action.preset} on ${inverter}`;
    case "setting": {
      const setting =
        typeof action.setting === "number"
          ? String(action.setting)
          : String(action.setting)
              .toLowerCase()
              .replace(/[\s_-]+/g, " ")
              .trim();
      return `setting ${setting} on ${inverter}`;
    }
    case "charger": {
      const command = chargerCommand(action);
      if (command === undefined) return undefined;
      const charger = action.uuid === undefined ? "the default charger" : `charger ${action.uuid}`;
      // start and stop act on the same thing: whether the car charges.
      return `${command === "stop-charge" ? "start-charge" : command} on ${charger}`;
    }
    default:
      return undefined;
  }
}

function controlsOf(rule: RuleShape): Set<string> {
  return new Set(actionsOf(rule).flatMap((action) => staticControl(action) ?? []));
}

/** Whether `rule` beats `other` on a control both want (the engine's claims decide the same way). */
export function beats(rule: RuleShape, other: RuleShape): boolean {
  const mine = rule.priority ?? 0;
  const theirs = other.priority ?? 0;
  return mine > theirs || (mine === theirs && (rule.wins_over ?? []).includes(other.name));
}

/**
 * Every control two rules share where a window of one may be open when the other acts (at least
 * one has a window), with its winner; pairs of equal priority that the file does not settle are left out.
 */
export function sharedControls(rules: readonly RuleShape[]): SharedControl[] {
  const shared: SharedControl[] = [];
  rules.forEach((first, index) => {
    const mine = controlsOf(first);
    for (const second of rules.slice(index + 1)) {
      if (!hasWindow(first) && !hasWindow(second)) continue;
      for (const control of controlsOf(second)) {
        if (!mine.has(control)) continue;
        const [winner, loser] = beats(first, second) ? [first, second] : beats(second, first) ? [second, first] : [];
        if (!winner || !loser) continue;
        const because =
          (winner.priority ?? 0) === (loser.priority ?? 0)
            ? `wins_over, both priority ${winner.priority ?? 0}`
            : `priority ${winner.priority ?? 0} over ${loser.priority ?? 0}`;
        shared.push({ control, winner: winner.name, loser: loser.name, because });
      }
    }
  });
  return shared;
}

/** What the rules file must say before it runs: which rule wins a control two rules of equal priority share. */
export function overlapProblems(rules: readonly RuleShape[]): OverlapProblem[] {
  const problems: OverlapProblem[] = [];
  const byName = new Map(rules.map((rule, index) => [rule.name, { rule, index }]));
  rules.forEach((rule, index) => {
    for (const name of rule.wins_over ?? []) {
      const other = byName.get(name)?.rule;
      const problem = (message: string) => problems.push({ rule: index, key: "wins_over", message });
      if (name === rule.name) problem(`names the rule itself ("${name}")`);
      else if (!other) problem(`names "${name}", but no rule has that name`);
      else if ((other.priority ?? 0) !== (rule.priority ?? 0))
        problem(
          `names "${name}", whose priority (${other.priority ?? 0}) differs from this rule's (${rule.priority ?? 0}): the higher priority wins already; remove "${name}" here, or make the priorities equal`,
        );
      else if ((other.wins_over ?? []).includes(rule.name))
        problem(`names "${name}", whose wins_over names "${rule.name}" too: say in one of them which wins`);
    }
  });
  rules.forEach((first, index) => {
    const mine = controlsOf(first);
    rules.slice(index + 1).forEach((second, offset) => {
      if ((first.priority ?? 0) !== (second.priority ?? 0)) return;
      if (!hasWindow(first) && !hasWindow(second)) return;
      if (beats(first, second) || beats(second, first)) return;
      const control = [...controlsOf(second)].find((found) => mine.has(found));
      if (control === undefined) return;
      problems.push({
        rule: index + 1 + offset,
        key: "priority",
        message: `"${first.name}" and "${second.name}" both act on ${control} with priority ${first.priority ?? 0}, and a window of one may be open when the other acts (run now opens one at any time): give one a higher priority, or say which wins with wins_over: [${second.name}] on "${first.name}" (or the other way round)`,
      });
    });
  });
  return problems;
}

/** `check`'s and `rules plan`'s lines: who wins each shared control. */
export function sharedControlLines(rules: readonly RuleShape[]): string[] {
  return sharedControls(rules).map(
    (shared) =>
      `${shared.control}: ${shared.winner} wins over ${shared.loser} (${shared.because}) whenever both act on it while a window is open`,
  );
}

/** `check`'s paragraph on shared controls; empty when no two rules share one. */
export function sharedControlText(rules: readonly RuleShape[]): string {
  const lines = sharedControlLines(rules);
  return lines.length === 0 ? "" : `rules: who wins a control two rules share:\n  ${lines.join("\n  ")}\n`;
}

/** A stretch of time; `end` equal to `start` is an instant (a cron run). */
interface Span {
  readonly start: number;
  readonly end: number;
}

/** Whether two spans meet: they overlap, or an instant falls inside the other's window. */
function meet(a: Span, b: Span): boolean {
  const from = Math.max(a.start, b.start);
  const to = Math.min(a.end, b.end);
  return from < to || (from === to && (a.start === a.end || b.start === b.end) && from < Math.max(a.end, b.end));
}

export interface PlannedOverlap extends Span, SharedControl {}

/** Where the planned windows (and cron runs) of two rules sharing a control meet, with the winner. */
export function plannedOverlaps(
  rules: readonly RuleShape[],
  windows: ReadonlyMap<string, readonly Span[]>,
): PlannedOverlap[] {
  const found: PlannedOverlap[] = [];
  for (const shared of sharedControls(rules)) {
    for (const mine of windows.get(shared.winner) ?? []) {
      for (const theirs of windows.get(shared.loser) ?? []) {
        if (!meet(mine, theirs)) continue;
        const start = Math.max(mine.start, theirs.start);
        found.push({ ...shared, start, end: Math.max(start, Math.min(mine.end, theirs.end)) });
      }
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

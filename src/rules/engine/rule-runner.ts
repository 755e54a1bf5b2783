import type { Logger } from "../../log/log.js";
import type { PlannedHalfHour, RuleRunResult, RunPreview } from "../../rules-runtime/index.js";
import type { RuleObligations } from "../../store/index.js";
import { formatLocal, localClockText, SLOT_MS } from "../../time/index.js";
import { intentWords } from "../file/intent-words.js";
import type { Rule } from "../file/schema.js";
import { isWindowTrigger } from "../file/schema.js";
import { type TemplateContext, templateContext } from "../file/templates.js";
import type { Interval } from "../planners/planner.js";
import type { PlannedWindow } from "../planners/rule-windows.js";
import type { Tariff } from "../tariffs/index.js";
import type { RuleActions } from "./actions.js";
import { conditionChecks } from "./condition-checks.js";
import { conditionHolds, type LiveState } from "./live-state.js";
import type { PriceWatch } from "./price-watch.js";
import type { RuleEvents } from "./rule-events.js";
import type { OpenWindow, WindowBook } from "./window-book.js";

export interface RuleRunnerOptions {
  readonly book: WindowBook;
  readonly actions: RuleActions;
  readonly events: RuleEvents;
  readonly obligations: RuleObligations;
  readonly prices: PriceWatch;
  readonly importTariff: Tariff | undefined;
  readonly timeZone: string;
  readonly logger: Logger;
  readonly now: () => number;
  /** The live values now (the engine keeps them up to date). */
  readonly state: () => LiveState;
  /** Sets the engine's alarm again (a window run now opened adds an end to wait for). */
  readonly reschedule: () => void;
  /** An optimise rule's last plan for the half-hour holding `now`; undefined for other rules or before a plan. */
  readonly planNow?: (rule: string, now: number) => PlannedHalfHour | undefined;
}

/**
 * Run now of an optimise rule outside its windows: what its plan says for the half-hour holding
 * now. Its next window is not moved to now: run now applies the plan's present half-hour.
 */
type OptimiserNow =
  | { readonly act: false; readonly message: string; readonly slot?: PlannedHalfHour }
  | { readonly act: true; readonly next: PlannedWindow; readonly slot: PlannedHalfHour };

/**
 * Runs the rules when the engine says it is time: opens and closes windows (keeping the promise
 * to restore, also across restarts), fires cron and state triggers, and runs a rule now.
 */
export class RuleRunner {
  constructor(private readonly options: RuleRunnerOptions) {}

  async openWindow(rule: Rule, window: PlannedWindow): Promise<void> {
    const open = this.options.book.openPlanned(rule.name, window);
    // A window resumed after a restart already has its obligation.
    const store = this.options.obligations;
    const pending = store.pending().find((found) => found.rule === rule.name);
    if (pending) {
      open.obligation = pending.id;
      if (pending.windowEnd < window.end) store.update(pending.id, { windowEnd: window.end });
    }
    this.emitOpen(rule, window, `${window.label}: ${this.span(window)}`);
    const check = conditionHolds(rule.if, this.conditionContext());
    if (!check.ok) {
      this.options.actions.record(rule.name, true, `window ${this.span(window)} skipped: ${check.why}`);
      return;
    }
    await this.act(withActionsOf(rule, window), open, open, window.plan);
  }

  /**
   * The open window re-planned (the book holds it as `window` already): the rule's actions again
   * with the new plan, through the gate, which leaves alone what the inverter already holds. The
   * promise to restore keeps what was saved when the window first wrote each control.
   */
  async rewriteWindow(rule: Rule, window: PlannedWindow, why: string): Promise<void> {
    const open = this.options.book.openOf(rule.name);
    if (!open) return;
    const span = { start: open.start, end: open.end };
    this.options.events.emit({ type: "window", rule: rule.name, phase: "replan", window: span, message: why });
    const check = conditionHolds(rule.if, this.conditionContext());
    if (!check.ok) {
      this.options.actions.record(rule.name, true, `re-planned window ${this.span(open)} not written: ${check.why}`);
      return;
    }
    await this.act(withActionsOf(rule, window), open, open, window.plan);
  }

  async closeWindow(rule: Rule, why: string): Promise<void> {
    const open = this.options.book.openOf(rule.name);
    if (!open) return;
    const store = this.options.obligations;
    const obligation = open.obligation === undefined ? undefined : store.get(open.obligation);
    if (obligation?.status === "open") {
      const held = this.options.book.heldByOther(rule.name, this.options.now());
      if (held) {
        // A rule that won one of these controls still holds it: restoring now would undo its change.
        // Wait for its window to end (it restores first, handing back our value), then put ours back.
        const { control, holder } = held;
        store.update(obligation.id, { windowEnd: holder.until });
        this.options.book.extend(rule.name, holder.until);
        this.options.events.emit({
          type: "conflict",
          rule: rule.name,
          winner: holder.rule,
          loser: rule.name,
          control,
          action: "restore",
          message: `restore waits until ${localClockText(holder.until, this.options.timeZone)}: rule ${holder.rule} holds ${control} until its window ends`,
        });
        return;
      }
      await this.options.actions.restore(obligation, why);
    }
    this.options.book.close(rule.name);
    const window = { start: open.start, end: open.end };
    this.options.events.emit({ type: "window", rule: rule.name, phase: "close", window, message: why });
  }

  /** On start: put back what windows that ended while we were down changed; watch the others. */
  async resumeObligations(): Promise<void> {
    const now = this.options.now();
    for (const obligation of this.options.obligations.pending()) {
      if (obligation.windowEnd <= now) {
        await this.options.actions.restore(obligation, "the window ended while energy2mqtt was not running");
        continue;
      }
      const window = { start: obligation.windowStart, end: obligation.windowEnd };
      this.options.book.openAt(obligation.rule, window, undefined, obligation.id);
      this.options.logger.info(
        { rule: obligation.rule, until: new Date(obligation.windowEnd).toISOString() },
        "resuming an open window after a restart",
      );
    }
  }

  /**
   * Run now: in an open window, the rule's actions for that window. A window rule outside its
   * window gets a window of its own from now, as long as its next planned one (so a timed slot is
   * never zero-length), with the same promise to put things back at its end; without a planned
   * window its length is unknown and nothing is sent. Other rules simply run.
   */
  async runManually(rule: Rule, respectConditions = false): Promise<RuleRunResult> {
    const now = this.options.now();
    if (respectConditions) {
      const check = conditionHolds(rule.if, this.conditionContext());
      if (!check.ok)
        return this.options.actions.refuse(
          rule,
          `not run: its condition does not hold (${check.why}); nothing was sent`,
        );
    }
    const open = this.options.book.openOf(rule.name);
    // In an open window: its own actions (an optimise rule's come with the window) and plan.
    if (open) return this.act(openActions(rule, open), open, open, open.planned?.plan ?? {});
    if (!rule.when.some(isWindowTrigger)) return this.act(rule, { start: now, end: now }, undefined, {});
    const optimiser = this.optimiserNow(rule, now);
    if (optimiser?.act === false) return this.options.actions.refuse(rule, `not run: ${optimiser.message}`);
    const next = optimiser?.next ?? this.options.book.nextPlanned(rule.name, now);
    if (!next) {
      return this.options.actions.refuse(
        rule,
        `not run: ${rule.name} is a window rule and no window is planned for it yet, so its length is not known; nothing was sent`,
      );
    }
    const window = this.options.book.openAt(rule.name, {
      start: now,
      end: now + (next.end - Math.max(next.start, now)),
    });
    this.emitOpen(rule, window, `run now, for the length of the planned window (${next.label}): ${this.span(window)}`);
    const result = await this.act(withActionsOf(rule, next), window, window, next.plan);
    // Its end closes it and keeps the promise to restore, as for a planned window.
    this.options.reschedule();
    return result;
  }

  /** What runManually would do now: the same window, actions and devices; nothing sent, nothing recorded. */
  previewManually(rule: Rule): RunPreview {
    const now = this.options.now();
    const context = this.conditionContext();
    const conditions = conditionChecks(rule.if, context);
    const conditionsHold = conditionHolds(rule.if, context).ok;
    const dryRun = this.options.actions.isDryRun(rule);
    const open = this.options.book.openOf(rule.name);
    const optimiser = open ? undefined : this.optimiserNow(rule, now);
    const slot = open ? this.options.planNow?.(rule.name, now) : optimiser?.slot;
    const base = { name: rule.name, dryRun, conditions, conditionsHold, ...(slot ? { planNow: slot } : {}) };
    let acting: { rule: Rule; window: Interval; plan: TemplateContext; timed: boolean };
    if (open) acting = { rule: openActions(rule, open), window: open, plan: open.planned?.plan ?? {}, timed: true };
    else if (!rule.when.some(isWindowTrigger))
      acting = { rule, window: { start: now, end: now }, plan: {}, timed: false };
    else if (optimiser?.act === false) return { ...base, ok: false, message: optimiser.message, actions: [] };
    else {
      const next = optimiser?.next ?? this.options.book.nextPlanned(rule.name, now);
      if (!next)
        return {
          ...base,
          ok: false,
          message: `${rule.name} is a window rule and no window is planned for it yet, so its length is not known; nothing would be sent`,
          actions: [],
        };
      const window = { start: now, end: now + (next.end - Math.max(next.start, now)) };
      acting = { rule: withActionsOf(rule, next), window, plan: next.plan, timed: true };
    }
    const intents = this.options.actions.intents(
      acting.rule,
      this.templateContext(rule.name, acting.window, acting.plan),
    );
    const actions = intents.map((intent) => {
      const conflict = intent.kind === "change" ? this.conflictOf(rule, intent.control, now) : undefined;
      return { action: intent.text, ...intentWords(intent), ...(conflict ? { conflict } : {}) };
    });
    const span = acting.timed ? `over ${this.span(acting.window)}` : "once, now";
    return {
      ...base,
      ok: actions.length > 0,
      message: `${actions.length} action(s) ${span}${dryRun ? " (the rule is in dry run: logged, not sent)" : ""}`,
      ...(acting.timed ? { window: { start: acting.window.start, end: acting.window.end } } : {}),
      actions,
    };
  }

  /** An optimise rule's present half-hour, when no window of it is open; undefined for other rules. */
  private optimiserNow(rule: Rule, now: number): OptimiserNow | undefined {
    if (!rule.when.some((trigger) => trigger.optimise !== undefined)) return undefined;
    const slot = this.options.planNow?.(rule.name, now);
    if (!slot) return { act: false, message: `${rule.name} has no plan for this half-hour yet; nothing would be sent` };
    const span = this.span({ start: slot.start, end: slot.start + SLOT_MS });
    const next = this.options.book.nextPlanned(rule.name, now);
    if (slot.action !== "self-use" && next && next.start <= now) return { act: true, next, slot };
    return {
      act: false,
      slot,
      message:
        slot.action === "self-use"
          ? `the plan for ${span} is self-use (eco), the inverter's own mode outside the optimiser's windows: nothing to change, nothing would be sent`
          : `the plan for ${span} is ${slot.action}, but no window of it is planned now; nothing would be sent`,
    };
  }

  /** A cron or state trigger: the rule's conditions, then its actions (for its open window, if any). */
  async fire(rule: Rule, why: "cron" | "state"): Promise<void> {
    const check = conditionHolds(rule.if, this.conditionContext());
    if (!check.ok) {
      this.options.actions.record(rule.name, true, `${why} trigger: skipped, ${check.why}`);
      return;
    }
    const now = this.options.now();
    await this.act(rule, this.options.book.openOf(rule.name) ?? { start: now, end: now }, undefined, {});
  }

  private async act(
    rule: Rule,
    window: Interval,
    open: OpenWindow | undefined,
    plan: TemplateContext,
  ): Promise<RuleRunResult> {
    const context = this.templateContext(rule.name, window, plan);
    const { result, failedInWindow } = await this.options.actions.act(rule, open, context);
    if (failedInWindow) await this.closeWindow(rule, "the rule failed");
    return result;
  }

  /** Whether another rule holds the control now, and who would win, in words. */
  private conflictOf(rule: Rule, control: string, now: number): string | undefined {
    const holder = this.options.book.holderOf(control, rule.name, now);
    if (!holder) return undefined;
    const until = localClockText(holder.until, this.options.timeZone);
    const wins =
      rule.priority > holder.priority || (rule.priority === holder.priority && rule.wins_over.includes(holder.rule));
    return wins
      ? `takes it over from rule ${holder.rule} (priority ${holder.priority}), which holds it until ${until}`
      : `not sent: rule ${holder.rule} (priority ${holder.priority}) holds it until ${until}`;
  }

  private templateContext(rule: string, window: Interval, plan: TemplateContext): TemplateContext {
    return templateContext({
      rule,
      window,
      now: this.options.now(),
      timeZone: this.options.timeZone,
      prices: this.options.prices.prices(window.start),
      state: this.options.state(),
      plan,
    });
  }

  private emitOpen(rule: Rule, window: Interval, message: string): void {
    const span = { start: window.start, end: window.end };
    this.options.events.emit({ type: "window", rule: rule.name, phase: "open", window: span, message });
  }

  private conditionContext() {
    const now = this.options.now();
    const { timeZone, importTariff } = this.options;
    return { now, timeZone, state: this.options.state(), importPrice: importTariff?.priceAt(now) };
  }

  /** "2026-01-10 01:00-04:00"; with seconds when an end is not on a whole minute (a window run now). */
  private span(window: Interval): string {
    const timeZone = this.options.timeZone;
    const seconds = window.start % 60_000 !== 0 || window.end % 60_000 !== 0;
    const clock = (ms: number): string => formatLocal(ms, timeZone).slice(11, seconds ? 19 : 16);
    return `${formatLocal(window.start, timeZone).slice(0, 10)} ${clock(window.start)}-${clock(window.end)}`;
  }
}

/** The rule, acting with its window's own actions when the planner gave some (an optimise rule without do:). */
/** The rule with its open window's actions, when the window was planned with its own (an optimise rule's). */
function openActions(rule: Rule, open: OpenWindow): Rule {
  return open.planned ? withActionsOf(rule, open.planned) : rule;
}

function withActionsOf(rule: Rule, window: PlannedWindow): Rule {
  return window.actions && rule.do.length === 0 ? { ...rule, do: [...window.actions] } : rule;
}

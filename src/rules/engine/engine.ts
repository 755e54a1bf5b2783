import { pino } from "pino";
import { asyncScheduler, type Observable, type Subscription } from "rxjs";
import type { Logger } from "../../log.js";
import type { CheapWindow, Prices, RuleEvent, RuleRunResult, RuleStatus, RulesRuntime } from "../../ports/rules.js";
import { HOUR_MS, localClockText, localDateTimeText } from "../../time/local-time.js";
import type { Interval } from "../planner.js";
import type { Rule } from "../schema.js";
import { isWindowTrigger, rulesTimeZone } from "../schema.js";
import { type TemplateContext, templateContext } from "../templates.js";
import { RuleActions } from "./actions.js";
import { CronClock } from "./cron-clock.js";
import { conditionHolds, type LiveState, nextState, readBatterySoc, watchedDevices } from "./live-state.js";
import type { RulesOptions } from "./options.js";
import { PriceWatch } from "./price-watch.js";
import { RuleEvents } from "./rule-events.js";
import { StateTriggers } from "./state-triggers.js";
import { Alarm, timersOn } from "./timers.js";
import { type OpenWindow, WindowBook } from "./window-book.js";
import { type PlannedWindow, planRuleWindows } from "./windows.js";
import { WorkQueue } from "./work-queue.js";

/** Plans are made again at least this often (and whenever the prices change). */
const REPLAN_MS = HOUR_MS;

/**
 * The running rules; see startRules(). It coordinates: timers say when (CronClock, the window
 * book's next window, price refreshes and replans on one Alarm), the WindowBook says which windows
 * are planned and open and who holds which control, RuleActions acts and keeps the promise to
 * restore. Every step runs on one WorkQueue, so that no two overlap.
 */
export class RulesEngine implements RulesRuntime {
  private readonly logger: Logger;
  private readonly now: () => number;
  /** The zone the rules' hours are read in (rulesTimeZone). */
  readonly timeZone: string;
  private readonly horizonMs: number;
  /** Highest priority first. */
  private readonly rules: readonly Rule[];
  private readonly enabled = new Map<string, boolean>();
  private readonly events: RuleEvents;
  private readonly queue: WorkQueue;
  private readonly alarm: Alarm;
  private readonly book = new WindowBook();
  private readonly actions: RuleActions;
  private readonly priceWatch: PriceWatch;
  private readonly stateTriggers: StateTriggers;
  private cron: CronClock | undefined;
  private state: LiveState = {};
  private nextReplan = 0;
  private readings: Subscription | undefined;
  /** Aborts price fetches in flight when the engine stops. */
  private readonly abort = new AbortController();

  constructor(private readonly options: RulesOptions) {
    const scheduler = options.scheduler ?? asyncScheduler;
    this.now = options.now ?? (() => scheduler.now());
    this.logger = (options.logger ?? pino({ enabled: false })).child({ module: "rules" });
    this.timeZone = rulesTimeZone(options.rules, options.inventory.timezone);
    this.horizonMs = (options.horizonHours ?? 48) * HOUR_MS;
    this.rules = [...options.rules.rules].sort((a, b) => b.priority - a.priority);
    this.events = new RuleEvents(this.logger, this.now);
    this.queue = new WorkQueue(this.logger);
    this.alarm = new Alarm(timersOn(scheduler, this.now));
    const currency = options.rules.tariffs.currency;
    this.priceWatch = new PriceWatch(options.tariffs, currency, this.horizonMs, this.logger);
    this.stateTriggers = new StateTriggers(this.rules);
    this.actions = new RuleActions({
      gate: options.gate,
      client: options.client,
      obligations: options.store.ruleObligations,
      inventory: options.inventory,
      book: this.book,
      events: this.events,
      logger: this.logger,
      now: this.now,
      stopping: () => this.queue.closed,
      dryRun: (rule) => this.isDryRun(rule),
    });
  }

  get events$(): Observable<RuleEvent> {
    return this.events.events$;
  }

  async start(): Promise<void> {
    const store = this.options.store.ruleObligations;
    for (const rule of this.rules) this.enabled.set(rule.name, store.enabled(rule.name) ?? rule.enabled);
    await this.refreshPrices();
    await this.resumeObligations();
    const watched = watchedDevices(this.options.inventory);
    this.readings = this.options.readings$.subscribe((reading) => {
      const before = this.state;
      this.state = nextState(this.state, reading, watched);
      if (this.state !== before) this.queue.enqueue(async () => this.checkStates());
    });
    this.cron = new CronClock(this.rules, this.timeZone, this.now());
    await this.queue.enqueue(() => this.tick());
  }

  /** Resolves when everything already due has been done (for tests and shutdown). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  list(): RuleStatus[] {
    const now = this.now();
    return this.options.rules.rules.map((rule) => {
      const next = this.book.openOf(rule.name) ?? this.book.nextPlanned(rule.name, now);
      const lastRun = this.actions.lastRun(rule.name);
      return {
        name: rule.name,
        enabled: this.isEnabled(rule.name),
        dryRun: this.isDryRun(rule),
        priority: rule.priority,
        ...(next ? { nextWindow: { start: next.start, end: next.end } } : {}),
        ...(lastRun ? { lastRun } : {}),
      };
    });
  }

  setEnabled(name: string, enabled: boolean): void {
    const rule = this.rule(name);
    this.enabled.set(rule.name, enabled);
    this.options.store.ruleObligations.setEnabled(rule.name, enabled, this.now());
    this.logger.info({ rule: name, enabled }, enabled ? "rule switched on" : "rule switched off");
    // Switched off mid-window: put things back now rather than at the window's end.
    this.queue.enqueue(async () => {
      if (!enabled && this.book.openOf(name)) await this.closeWindow(rule, "the rule was switched off");
      await this.tick();
    });
  }

  runNow(name: string): Promise<RuleRunResult> {
    return new Promise((resolve, reject) => {
      // An unknown name rejects like any other failure, rather than throwing before a promise exists.
      const rule = this.rule(name);
      if (this.queue.closed) throw new Error(`rule ${name} was not run: the rules engine is stopped`);
      void this.queue
        .enqueue(async () => {
          try {
            resolve(await this.runManually(rule));
          } catch (error) {
            reject(error);
          }
        })
        .then(() => reject(new Error(`rule ${name} was not run: the rules engine stopped`)));
    });
  }

  prices(at?: number): Prices {
    return this.priceWatch.prices(at ?? this.now());
  }

  nextCheapWindow(): CheapWindow | undefined {
    for (const window of this.book.cheapWindows(this.now(), (rule) => this.isEnabled(rule))) {
      const price = this.priceWatch.averageImport(window);
      if (price !== undefined) return { start: window.start, end: window.end, price };
    }
    return undefined;
  }

  async stop(): Promise<void> {
    const drained = this.queue.close();
    this.abort.abort();
    this.alarm.cancel();
    this.readings?.unsubscribe();
    await drained;
    this.events.complete();
  }

  // --- when -------------------------------------------------------------------------------

  /** Sets the alarm for the next thing due: a window, a cron time, a price refresh or a replan. */
  private schedule(): void {
    if (this.queue.closed) return;
    const now = this.now();
    const next = Math.min(
      this.nextReplan,
      this.priceWatch.nextRefresh,
      this.cron?.nextCheck() ?? Number.POSITIVE_INFINITY,
      this.book.nextDue(now, (rule) => this.isEnabled(rule)),
    );
    this.alarm.set(next, () => {
      this.queue.enqueue(() => this.tick());
    });
  }

  /** Does everything due now, in order: close windows, refresh prices and plans, open windows, cron. */
  private async tick(): Promise<void> {
    let now = this.now();
    for (const name of this.book.ended(now)) await this.closeWindow(this.ruleOrStub(name), "the window ended");
    if (now >= this.priceWatch.nextRefresh) await this.refreshPrices();
    now = this.now();
    if (now >= this.nextReplan) await this.replan();
    for (const rule of this.rules) {
      if (!this.isEnabled(rule.name) || this.book.openOf(rule.name)) continue;
      const window = this.book.dueToOpen(rule.name, now);
      if (window) await this.openWindow(rule, window);
    }
    for (const name of this.cron?.due(now) ?? []) {
      if (this.isEnabled(name)) await this.fire(this.rule(name), "cron");
    }
    this.schedule();
  }

  private async refreshPrices(): Promise<void> {
    const now = this.now();
    if (await this.priceWatch.refresh(now, this.abort.signal)) this.nextReplan = now;
  }

  private async replan(): Promise<void> {
    const now = this.now();
    this.nextReplan = now + REPLAN_MS;
    const serial = watchedDevices(this.options.inventory).inverter;
    const needsSoc = this.rules.some((rule) => rule.when.some((trigger) => trigger.battery !== undefined));
    if (needsSoc && this.state.batterySoc === undefined) {
      const soc = await readBatterySoc(this.options.client, serial, this.logger);
      if (soc !== undefined) this.state = { ...this.state, batterySoc: soc };
    }
    const inverter = this.options.inventory.inverters.find((found) => found.serial === serial);
    for (const rule of this.rules) {
      if (!rule.when.some(isWindowTrigger)) continue;
      const { windows, notes } = planRuleWindows(rule, {
        rules: this.options.rules,
        tariffs: this.options.tariffs,
        timeZone: this.timeZone,
        now,
        to: now + this.horizonMs,
        soc: this.state.batterySoc,
        capacityKwh: inverter?.batteryCapacityKwh,
      });
      this.book.replan(rule.name, windows, now);
      for (const note of notes) this.logger.info({ rule: rule.name }, note);
    }
  }

  private checkStates(): void {
    for (const rule of this.stateTriggers.crossed(this.state)) {
      if (this.isEnabled(rule.name)) this.queue.enqueue(() => this.fire(rule, "state"));
    }
  }

  // --- windows ----------------------------------------------------------------------------

  private async openWindow(rule: Rule, window: PlannedWindow): Promise<void> {
    const open = this.book.openPlanned(rule.name, window);
    // A window resumed after a restart already has its obligation.
    const store = this.options.store.ruleObligations;
    const pending = store.pending().find((found) => found.rule === rule.name);
    if (pending) {
      open.obligation = pending.id;
      if (pending.windowEnd < window.end) store.update(pending.id, { windowEnd: window.end });
    }
    this.emitOpen(rule, window, `${window.label}: ${this.span(window)}`);
    const check = conditionHolds(rule.if, this.conditionContext());
    if (!check.ok) {
      this.actions.record(rule.name, true, `window ${this.span(window)} skipped: ${check.why}`);
      return;
    }
    await this.act(rule, open, open, window.plan);
  }

  private async closeWindow(rule: Rule, why: string): Promise<void> {
    const open = this.book.openOf(rule.name);
    if (!open) return;
    const store = this.options.store.ruleObligations;
    const obligation = open.obligation === undefined ? undefined : store.get(open.obligation);
    if (obligation?.status === "open") {
      const holder = this.book.heldByOther(rule.name, this.now());
      if (holder) {
        // A higher-priority rule holds one of these controls: restoring now would undo its change.
        // Wait for its window to end (it restores first), then put ours back.
        store.update(obligation.id, { windowEnd: holder.until });
        this.book.extend(rule.name, holder.until);
        this.logger.info({ rule: rule.name, holder: holder.rule }, "restore waits for the rule holding the control");
        return;
      }
      await this.actions.restore(obligation, why);
    }
    this.book.close(rule.name);
    const window = { start: open.start, end: open.end };
    this.events.emit({ type: "window", rule: rule.name, phase: "close", window, message: why });
  }

  /** On start: put back what windows that ended while we were down changed; watch the others. */
  private async resumeObligations(): Promise<void> {
    const now = this.now();
    for (const obligation of this.options.store.ruleObligations.pending()) {
      if (obligation.windowEnd <= now) {
        await this.actions.restore(obligation, "the window ended while energy2mqtt was not running");
        continue;
      }
      const window = { start: obligation.windowStart, end: obligation.windowEnd };
      this.book.openAt(obligation.rule, window, undefined, obligation.id);
      this.logger.info(
        { rule: obligation.rule, until: new Date(obligation.windowEnd).toISOString() },
        "resuming an open window after a restart",
      );
    }
  }

  // --- acting -----------------------------------------------------------------------------

  /**
   * Run now: in an open window, the rule's actions for that window. A window rule outside its
   * window gets a window of its own from now, as long as its next planned one (so a timed slot is
   * never zero-length), with the same promise to put things back at its end; without a planned
   * window its length is unknown and nothing is sent. Other rules simply run.
   */
  private async runManually(rule: Rule): Promise<RuleRunResult> {
    const now = this.now();
    const open = this.book.openOf(rule.name);
    if (open) return this.act(rule, open, open, {});
    if (!rule.when.some(isWindowTrigger)) return this.act(rule, { start: now, end: now }, undefined, {});
    const next = this.book.nextPlanned(rule.name, now);
    if (!next) {
      return this.actions.refuse(
        rule,
        `not run: ${rule.name} is a window rule and no window is planned for it yet, so its length is not known; nothing was sent`,
      );
    }
    const window = this.book.openAt(rule.name, { start: now, end: now + (next.end - Math.max(next.start, now)) });
    this.emitOpen(rule, window, `run now, for the length of the planned window (${next.label}): ${this.span(window)}`);
    const result = await this.act(rule, window, window, next.plan);
    // Its end closes it and keeps the promise to restore, as for a planned window.
    this.schedule();
    return result;
  }

  /** A cron or state trigger: the rule's conditions, then its actions (for its open window, if any). */
  private async fire(rule: Rule, why: "cron" | "state"): Promise<void> {
    const check = conditionHolds(rule.if, this.conditionContext());
    if (!check.ok) {
      this.actions.record(rule.name, true, `${why} trigger: skipped, ${check.why}`);
      return;
    }
    const now = this.now();
    await this.act(rule, this.book.openOf(rule.name) ?? { start: now, end: now }, undefined, {});
  }

  private async act(
    rule: Rule,
    window: Interval,
    open: OpenWindow | undefined,
    plan: TemplateContext,
  ): Promise<RuleRunResult> {
    const context = templateContext({
      rule: rule.name,
      window,
      now: this.now(),
      timeZone: this.timeZone,
      prices: this.prices(window.start),
      state: this.state,
      plan,
    });
    const { result, failedInWindow } = await this.actions.act(rule, open, context);
    if (failedInWindow) await this.closeWindow(rule, "the rule failed");
    return result;
  }

  // --- helpers ----------------------------------------------------------------------------

  private emitOpen(rule: Rule, window: Interval, message: string): void {
    const span = { start: window.start, end: window.end };
    this.events.emit({ type: "window", rule: rule.name, phase: "open", window: span, message });
  }

  private isEnabled(rule: string): boolean {
    return this.enabled.get(rule) !== false;
  }

  private isDryRun(rule: Rule): boolean {
    return (this.options.dryRun ?? false) || this.options.rules.dry_run || rule.dry_run;
  }

  private rule(name: string): Rule {
    const rule = this.rules.find((found) => found.name === name);
    if (!rule) throw new Error(`no rule named "${name}" (have: ${this.rules.map((found) => found.name).join(", ")})`);
    return rule;
  }

  /** A rule removed from rules.yaml may still have a window to close after a restart. */
  private ruleOrStub(name: string): Rule {
    return this.rules.find((found) => found.name === name) ?? ({ name, priority: 0, restore: "after_window" } as Rule);
  }

  private conditionContext() {
    const now = this.now();
    return { now, timeZone: this.timeZone, state: this.state, importPrice: this.options.tariffs.import?.priceAt(now) };
  }

  private span(window: Interval): string {
    return `${localDateTimeText(window.start, this.timeZone)}-${localClockText(window.end, this.timeZone)}`;
  }
}

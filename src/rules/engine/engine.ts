import { pino } from "pino";
import { asyncScheduler, Observable, Subject, type Subscription } from "rxjs";
import { prepareRestore, restorePlan } from "../../control/index.js";
import type { Logger } from "../../log.js";
import type {
  CheapWindow,
  Prices,
  RuleActionResult,
  RuleEvent,
  RuleLastRun,
  RuleRunResult,
  RuleStatus,
  RulesRuntime,
} from "../../ports/rules.js";
import type { RuleObligation } from "../../store/index.js";
import { HOUR_MS, localClockText, localDateTimeText } from "../../time/local-time.js";
import type { Interval } from "../planner.js";
import type { Rule } from "../schema.js";
import { isWindowTrigger, rulesTimeZone, triggerKind } from "../schema.js";
import { type TemplateContext, templateContext } from "../templates.js";
import { Claims } from "./claims.js";
import { CronClock } from "./cron-clock.js";
import { type Intent, intentOf, snapshotName } from "./intents.js";
import { conditionHolds, type LiveState, nextState, stateHolds, triggerState } from "./live-state.js";
import type { RulesOptions } from "./options.js";
import { type Timers, timersOn } from "./timers.js";
import { type PlannedWindow, planRuleWindows } from "./windows.js";

/** Plans are made again at least this often (and whenever agile prices change). */
const REPLAN_MS = HOUR_MS;

interface OpenWindow extends Interval {
  readonly period: string | undefined;
  obligation: number | undefined;
  readonly controls: Set<string>;
  failed: boolean;
}

type Why = "window" | "cron" | "state" | "manual";

type EventInput = RuleEvent extends infer E ? (E extends RuleEvent ? Omit<E, "at"> : never) : never;

/** The running rules; see startRules(). */
/** At most this many events from before anyone listened are kept for the first listeners. */
const EARLY_EVENTS = 100;

export class RulesEngine implements RulesRuntime {
  private readonly events = new Subject<RuleEvent>();
  /**
   * What the rules did before anyone listened (a window opened, a restore after a restart, inside
   * start()): replayed to each subscriber, so that Home Assistant hears of it once it follows.
   */
  private readonly early: RuleEvent[] = [];
  private listened = false;
  readonly events$: Observable<RuleEvent> = new Observable<RuleEvent>((subscriber) => {
    this.listened = true;
    for (const event of this.early) subscriber.next(event);
    return this.events.subscribe(subscriber);
  });
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly timers: Timers;
  /** The zone the rules' hours are read in (rulesTimeZone). */
  readonly timeZone: string;
  private readonly horizonMs: number;
  private readonly rules: readonly Rule[];
  private readonly enabled = new Map<string, boolean>();
  private readonly planned = new Map<string, PlannedWindow[]>();
  private readonly open = new Map<string, OpenWindow>();
  /** Periods whose windows have begun: replanning leaves them as they are. */
  private readonly begun = new Set<string>();
  /** Windows opened already (rule, start), so a replan does not open one twice. */
  private readonly opened = new Set<string>();
  private readonly lastRuns = new Map<string, RuleLastRun>();
  private readonly claims = new Claims();
  private cron: CronClock | undefined;
  private readonly stateHeld = new Map<string, boolean | undefined>();
  private state: LiveState = {};
  private cancelTimer: (() => void) | undefined;
  private nextReplan = 0;
  private nextRefresh = Number.POSITIVE_INFINITY;
  private priceMark = "";
  private queue: Promise<void> = Promise.resolve();
  private readings: Subscription | undefined;
  private stopped = false;
  /** Aborts price fetches in flight when the engine stops. */
  private readonly abort = new AbortController();

  constructor(private readonly options: RulesOptions) {
    const scheduler = options.scheduler ?? asyncScheduler;
    this.now = options.now ?? (() => scheduler.now());
    this.timers = timersOn(scheduler, this.now);
    this.logger = (options.logger ?? pino({ enabled: false })).child({ module: "rules" });
    this.timeZone = rulesTimeZone(options.rules, options.inventory.timezone);
    this.horizonMs = (options.horizonHours ?? 48) * HOUR_MS;
    this.rules = [...options.rules.rules].sort((a, b) => b.priority - a.priority);
  }

  async start(): Promise<void> {
    const store = this.options.store.ruleObligations;
    for (const rule of this.rules) this.enabled.set(rule.name, store.enabled(rule.name) ?? rule.enabled);
    await this.refreshPrices();
    await this.resumeObligations();
    this.readings = this.options.readings$.subscribe((reading) => {
      const before = this.state;
      this.state = nextState(this.state, reading, this.watched());
      if (this.state !== before) this.enqueue(() => this.checkStates());
    });
    this.cron = new CronClock(this.rules, this.timeZone, this.now());
    await this.enqueue(() => this.tick());
  }

  /**
   * Resolves when everything already due has been done (for tests and shutdown), including work
   * that queued work adds (a reading's check queues the rule it fires).
   */
  async idle(): Promise<void> {
    for (;;) {
      const queued = this.queue;
      await queued;
      if (queued === this.queue) return;
    }
  }

  list(): RuleStatus[] {
    const now = this.now();
    return this.options.rules.rules.map((rule) => {
      const open = this.open.get(rule.name);
      const next = open ?? this.planned.get(rule.name)?.find((window) => window.end > now);
      const lastRun = this.lastRuns.get(rule.name);
      return {
        name: rule.name,
        enabled: this.enabled.get(rule.name) ?? rule.enabled,
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
    this.enqueue(async () => {
      if (!enabled && this.open.has(name)) await this.closeWindow(rule, "the rule was switched off");
      await this.tick();
    });
  }

  runNow(name: string): Promise<RuleRunResult> {
    return new Promise((resolve, reject) => {
      // An unknown name rejects like any other failure, rather than throwing before a promise exists.
      const rule = this.rule(name);
      if (this.stopped) throw new Error(`rule ${name} was not run: the rules engine is stopped`);
      void this.enqueue(async () => {
        try {
          resolve(await this.runManually(rule));
        } catch (error) {
          reject(error);
        }
      }).then(() => reject(new Error(`rule ${name} was not run: the rules engine stopped`)));
    });
  }

  /**
   * Run now: in an open window, the rule's actions for that window. A window rule outside its
   * window gets a window of its own from now, as long as its next planned one (so a timed slot is
   * never zero-length), with the same promise to put things back at its end; without a planned
   * window its length is unknown and nothing is sent. Other rules simply run.
   */
  private async runManually(rule: Rule): Promise<RuleRunResult> {
    const now = this.now();
    const open = this.open.get(rule.name);
    if (open) return this.act(rule, "manual", open, {});
    if (!rule.when.some(isWindowTrigger)) return this.act(rule, "manual", { start: now, end: now }, {});
    const next = this.planned.get(rule.name)?.find((window) => window.end > now);
    if (!next) {
      return this.finishRun(
        rule,
        false,
        false,
        `not run: ${rule.name} is a window rule and no window is planned for it yet, so its length is not known; nothing was sent`,
        [],
      );
    }
    const window: OpenWindow = {
      start: now,
      end: now + (next.end - Math.max(next.start, now)),
      period: undefined,
      obligation: undefined,
      controls: new Set(),
      failed: false,
    };
    this.open.set(rule.name, window);
    this.emit({
      type: "window",
      rule: rule.name,
      phase: "open",
      window: { start: window.start, end: window.end },
      message: `run now, for the length of the planned window (${next.label}): ${this.span(window)}`,
    });
    const result = await this.act(rule, "manual", window, next.plan);
    // Its end closes it and keeps the promise to restore, as for a planned window.
    this.schedule();
    return result;
  }

  prices(at?: number): Prices {
    const when = at ?? this.now();
    const imported = this.options.tariffs.import?.priceAt(when);
    const exported = this.options.tariffs.export?.priceAt(when);
    return {
      ...(imported === undefined ? {} : { import: imported }),
      ...(exported === undefined ? {} : { export: exported }),
      currency: this.options.rules.tariffs.currency,
    };
  }

  nextCheapWindow(): CheapWindow | undefined {
    const now = this.now();
    const candidates = [...this.planned.values()]
      .flat()
      .filter((window) => window.cheapImport && window.end > now && this.enabled.get(window.rule) !== false)
      .sort((a, b) => a.start - b.start);
    for (const window of candidates) {
      const price = this.averageImport(window);
      if (price !== undefined) return { start: window.start, end: window.end, price };
    }
    return undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.cancelTimer?.();
    this.readings?.unsubscribe();
    await this.queue;
    this.events.complete();
  }

  // --- scheduling -------------------------------------------------------------------------

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(async () => {
      if (this.stopped) return;
      try {
        await work();
      } catch (error) {
        this.logger.error({ err: error }, "the rules engine failed a step; it carries on");
      }
    });
    this.queue = run;
    return run;
  }

  private schedule(): void {
    this.cancelTimer?.();
    if (this.stopped) return;
    const now = this.now();
    const times = [this.nextReplan, this.nextRefresh, this.cron?.nextCheck() ?? Number.POSITIVE_INFINITY];
    for (const window of this.open.values()) times.push(window.end);
    for (const [name, windows] of this.planned) {
      if (this.open.has(name) || this.enabled.get(name) === false) continue;
      const next = windows.find((window) => window.end > now && !this.opened.has(`${name}@${window.start}`));
      if (next) times.push(next.start);
    }
    const next = Math.min(...times);
    if (!Number.isFinite(next)) return;
    this.cancelTimer = this.timers.at(next, () => {
      this.enqueue(() => this.tick());
    });
  }

  /** Does everything due now, in order: close windows, refresh prices and plans, open windows, cron. */
  private async tick(): Promise<void> {
    let now = this.now();
    for (const [name, window] of [...this.open]) {
      if (window.end <= now) await this.closeWindow(this.ruleOrStub(name), "the window ended");
    }
    if (now >= this.nextRefresh) await this.refreshPrices();
    now = this.now();
    if (now >= this.nextReplan) await this.replan();
    for (const rule of this.rules) {
      if (this.enabled.get(rule.name) === false || this.open.has(rule.name)) continue;
      const window = this.planned
        .get(rule.name)
        ?.find((found) => found.start <= now && found.end > now && !this.opened.has(`${rule.name}@${found.start}`));
      if (window) await this.openWindow(rule, window);
    }
    for (const name of this.cron?.due(now) ?? []) {
      if (this.enabled.get(name) !== false) await this.fire(this.rule(name), "cron");
    }
    this.schedule();
  }

  // --- prices and plans -------------------------------------------------------------------

  private async refreshPrices(): Promise<void> {
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [side, tariff] of Object.entries(this.options.tariffs)) {
      await tariff.refresh(now, this.abort.signal);
      const error = tariff.status(now).error;
      if (error !== undefined) this.logger.warn({ tariff: side, error }, "prices could not be refreshed");
      next = Math.min(next, tariff.nextRefresh(now));
    }
    this.nextRefresh = next;
    const mark = this.priceMarkOf(now);
    if (mark !== this.priceMark) {
      this.priceMark = mark;
      this.nextReplan = now;
    }
  }

  /** A fingerprint of the prices over the horizon: a change means new plans. */
  private priceMarkOf(now: number): string {
    const parts: string[] = [];
    for (const tariff of [this.options.tariffs.import, this.options.tariffs.export]) {
      for (const rate of tariff?.rates(now, now + this.horizonMs) ?? []) parts.push(`${rate.start}:${rate.price}`);
    }
    return parts.join(",");
  }

  private async replan(): Promise<void> {
    const now = this.now();
    this.nextReplan = now + REPLAN_MS;
    const needsSoc = this.rules.some((rule) => rule.when.some((trigger) => trigger.battery !== undefined));
    if (needsSoc && this.state.batterySoc === undefined) await this.readSoc();
    const inverter = this.options.inventory.inverters.find((found) => found.serial === this.watched().inverter);
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
      const kept = (this.planned.get(rule.name) ?? []).filter((window) =>
        this.begun.has(`${rule.name}:${window.period}`),
      );
      const fresh = windows.filter((window) => !this.begun.has(`${rule.name}:${window.period}`));
      this.planned.set(
        rule.name,
        [...kept, ...fresh].filter((window) => window.end > now).sort((a, b) => a.start - b.start),
      );
      for (const note of notes) this.logger.info({ rule: rule.name }, note);
    }
  }

  private async readSoc(): Promise<void> {
    const serial = this.watched().inverter;
    if (!serial) return;
    try {
      const live = await this.options.client.inverterData.systemDataLatest(serial);
      const soc = live.battery?.percent;
      if (typeof soc === "number") this.state = { ...this.state, batterySoc: soc };
    } catch (error) {
      this.logger.warn({ err: error }, "the battery's SoC could not be read for planning");
    }
  }

  private averageImport(window: Interval): number | undefined {
    const rates = this.options.tariffs.import?.rates(window.start, window.end) ?? [];
    let weight = 0;
    let sum = 0;
    for (const rate of rates) {
      const overlap = Math.min(rate.end, window.end) - Math.max(rate.start, window.start);
      if (overlap <= 0) continue;
      weight += overlap;
      sum += rate.price * overlap;
    }
    return weight > 0 ? Math.round((sum / weight) * 10_000) / 10_000 : undefined;
  }

  // --- state triggers ---------------------------------------------------------------------

  private async checkStates(): Promise<void> {
    for (const rule of this.rules) {
      rule.when.forEach((trigger, index) => {
        const kind = triggerKind(trigger);
        if (kind === "cron" || isWindowTrigger(trigger)) return;
        const key = `${rule.name}#${index}`;
        const holds = stateHolds(triggerState(trigger), this.state);
        const before = this.stateHeld.get(key);
        this.stateHeld.set(key, holds);
        // Fire on the crossing from false to true; the first known value only sets where we are.
        if (holds === true && before === false && this.enabled.get(rule.name) !== false) {
          this.enqueue(() => this.fire(rule, "state"));
        }
      });
    }
  }

  // --- windows ----------------------------------------------------------------------------

  private async openWindow(rule: Rule, window: PlannedWindow): Promise<void> {
    this.opened.add(`${rule.name}@${window.start}`);
    this.begun.add(`${rule.name}:${window.period}`);
    const open: OpenWindow = {
      start: window.start,
      end: window.end,
      period: window.period,
      obligation: undefined,
      controls: new Set(),
      failed: false,
    };
    // A window resumed after a restart already has its obligation.
    const pending = this.options.store.ruleObligations.pending().find((found) => found.rule === rule.name);
    if (pending) {
      open.obligation = pending.id;
      if (pending.windowEnd < window.end)
        this.options.store.ruleObligations.update(pending.id, { windowEnd: window.end });
    }
    this.open.set(rule.name, open);
    this.emit({
      type: "window",
      rule: rule.name,
      phase: "open",
      window: { start: window.start, end: window.end },
      message: `${window.label}: ${this.span(window)}`,
    });
    const check = conditionHolds(rule.if, this.conditionContext());
    if (!check.ok) {
      this.setLastRun(rule.name, true, `window ${this.span(window)} skipped: ${check.why}`);
      return;
    }
    await this.act(rule, "window", open, window.plan);
  }

  private async closeWindow(rule: Rule, why: string): Promise<void> {
    const open = this.open.get(rule.name);
    if (!open) return;
    const obligation =
      open.obligation === undefined ? undefined : this.options.store.ruleObligations.get(open.obligation);
    if (obligation?.status === "open") {
      const holder = [...open.controls]
        .map((control) => this.claims.heldByOther(control, rule.name, this.now()))
        .find(Boolean);
      if (holder) {
        // A higher-priority rule holds one of these controls: restoring now would undo its change.
        // Wait for its window to end (it restores first), then put ours back.
        this.options.store.ruleObligations.update(obligation.id, { windowEnd: holder.until });
        this.open.set(rule.name, { ...open, end: holder.until });
        this.logger.info({ rule: rule.name, holder: holder.rule }, "restore waits for the rule holding the control");
        return;
      }
      await this.restore(obligation, why);
    }
    this.open.delete(rule.name);
    this.claims.release(rule.name);
    this.emit({
      type: "window",
      rule: rule.name,
      phase: "close",
      window: { start: open.start, end: open.end },
      message: why,
    });
  }

  private async restore(obligation: RuleObligation, why: string): Promise<void> {
    const report = await restorePlan(
      this.options.client,
      this.options.gate,
      { source: "rule", name: obligation.rule },
      obligation.restore,
    );
    if (!report.ok && this.stopped) {
      // Cut short by the stop (its calls are aborted): the promise stays open in the store, and
      // the next start puts things back.
      this.logger.warn(
        { rule: obligation.rule, message: report.message },
        "restore interrupted by the stop; the next start will do it",
      );
      return;
    }
    this.options.store.ruleObligations.finish(
      obligation.id,
      report.ok ? "restored" : "failed",
      this.now(),
      report.message,
    );
    this.emit({
      type: "restore",
      rule: obligation.rule,
      ok: report.ok,
      method: report.method,
      message: `${why}: ${report.message}`,
    });
  }

  /** On start: put back what windows that ended while we were down changed; watch the others. */
  private async resumeObligations(): Promise<void> {
    const now = this.now();
    for (const obligation of this.options.store.ruleObligations.pending()) {
      if (obligation.windowEnd <= now) {
        await this.restore(obligation, "the window ended while energy2mqtt was not running");
        continue;
      }
      this.open.set(obligation.rule, {
        start: obligation.windowStart,
        end: obligation.windowEnd,
        period: undefined,
        obligation: obligation.id,
        controls: new Set(),
        failed: false,
      });
      this.logger.info(
        { rule: obligation.rule, until: new Date(obligation.windowEnd).toISOString() },
        "resuming an open window after a restart",
      );
    }
  }

  // --- acting -----------------------------------------------------------------------------

  private async fire(rule: Rule, why: Why): Promise<void> {
    const check = conditionHolds(rule.if, this.conditionContext());
    if (!check.ok) {
      this.setLastRun(rule.name, true, `${why} trigger: skipped, ${check.why}`);
      return;
    }
    const now = this.now();
    await this.act(rule, why, this.open.get(rule.name) ?? { start: now, end: now }, {});
  }

  /** Sends a rule's actions, in order, through the gate; stops at the first failure. */
  private async act(rule: Rule, why: Why, window: Interval, plan: TemplateContext): Promise<RuleRunResult> {
    const dryRun = this.isDryRun(rule);
    const context = templateContext({
      rule: rule.name,
      window,
      now: this.now(),
      timeZone: this.timeZone,
      prices: this.prices(window.start),
      state: this.state,
      plan,
    });
    const intents = rule.do.map((action) => intentOf(action, context, rule.name, this.options.inventory));
    const results: RuleActionResult[] = [];
    const open = why === "window" || why === "manual" ? this.open.get(rule.name) : undefined;
    const now = this.now();
    // Conflicts first, so that the snapshot covers only what this rule will really change.
    const granted: Intent[] = [];
    for (const intent of intents) {
      if (intent.kind !== "change") {
        granted.push(intent);
        continue;
      }
      const answer = this.claims.request(
        intent.control,
        { rule: rule.name, priority: rule.priority, until: open ? open.end : now },
        now,
      );
      if (!answer.granted) {
        this.emit({
          type: "conflict",
          rule: rule.name,
          winner: answer.holder.rule,
          loser: rule.name,
          control: intent.control,
          action: intent.text,
          message: `${intent.text} not sent: rule ${answer.holder.rule} (priority ${answer.holder.priority}) holds ${intent.control}`,
        });
        results.push({
          action: intent.text,
          ok: true,
          skipped: true,
          message: `lost ${intent.control} to ${answer.holder.rule}`,
        });
        continue;
      }
      if (answer.displaced) {
        this.emit({
          type: "conflict",
          rule: rule.name,
          winner: rule.name,
          loser: answer.displaced.rule,
          control: intent.control,
          action: intent.text,
          message: `${intent.text} overrides rule ${answer.displaced.rule} (priority ${answer.displaced.priority}) on ${intent.control}`,
        });
      }
      open?.controls.add(intent.control);
      granted.push(intent);
    }
    if (dryRun) {
      for (const intent of granted) {
        this.emit({
          type: "action",
          rule: rule.name,
          status: "dry-run",
          action: intent.text,
          dry_run: true,
          ...controlOf(intent),
          message: `dry run: would ${intent.text}`,
        });
        results.push({ action: intent.text, ok: true, skipped: true, message: "dry run: not sent" });
      }
      return this.finishRun(rule, true, true, `dry run: ${granted.length} action(s) logged, nothing sent`, results);
    }
    if (open && rule.restore === "after_window" && open.obligation === undefined) {
      const requests = granted.flatMap((intent) => (intent.kind === "change" ? [intent.request] : []));
      if (requests.length > 0) {
        try {
          const restore = await prepareRestore(
            this.options.client,
            this.options.gate,
            { source: "rule", name: rule.name },
            requests,
            snapshotName(rule.name),
            this.logger.child({ rule: rule.name }),
          );
          open.obligation = this.options.store.ruleObligations.open({
            rule: rule.name,
            createdAt: this.now(),
            windowStart: open.start,
            windowEnd: open.end,
            restore,
          }).id;
        } catch (error) {
          const message = `nothing sent: what the rule changes could not be saved for restoring (${(error as Error).message})`;
          this.emit({ type: "failure", rule: rule.name, error: message, message });
          open.failed = true;
          return this.finishRun(rule, false, false, message, results);
        }
      }
    }
    for (const intent of granted) {
      const result = await this.send(rule, intent);
      results.push(result);
      if (!result.ok) {
        const message = `${intent.text} failed: ${result.message}`;
        this.emit({ type: "failure", rule: rule.name, error: result.message, message });
        if (open) {
          open.failed = true;
          await this.closeWindow(rule, "the rule failed");
        }
        return this.finishRun(rule, false, false, message, results);
      }
    }
    return this.finishRun(
      rule,
      true,
      false,
      `${results.filter((r) => !r.skipped).length} of ${results.length} action(s) sent`,
      results,
    );
  }

  private async send(rule: Rule, intent: Intent): Promise<RuleActionResult> {
    const base = { rule: rule.name, action: intent.text, dry_run: false, ...controlOf(intent) } as const;
    this.emit({ type: "action", status: "planned", message: `about to ${intent.text}`, ...base });
    let result: RuleActionResult;
    try {
      result = await this.perform(rule, intent);
    } catch (error) {
      result = { action: intent.text, ok: false, skipped: false, message: (error as Error).message };
    }
    const status = !result.ok ? "failed" : result.skipped ? "skipped" : "applied";
    this.emit({ type: "action", status, message: result.message, ...base });
    return result;
  }

  private async perform(rule: Rule, intent: Intent): Promise<RuleActionResult> {
    const text = intent.text;
    switch (intent.kind) {
      case "invalid":
        return { action: text, ok: false, skipped: false, message: intent.problem };
      case "change": {
        const outcome = await this.options.gate.apply(intent.request, { source: "rule", name: rule.name });
        return { action: text, ok: outcome.ok, skipped: outcome.skipped, message: outcome.message };
      }
      case "notify": {
        const outcome = await this.options.gate.act(
          { kind: "notification", notification: intent.notification },
          { source: "rule", name: rule.name },
        );
        return { action: text, ok: outcome.ok, skipped: false, message: outcome.message };
      }
      case "snapshot": {
        const outcome = await this.options.gate.act(
          { kind: "snapshot", op: intent.op, serial: intent.serial, name: intent.name },
          { source: "rule", name: rule.name },
        );
        return { action: text, ok: outcome.ok, skipped: false, message: outcome.message };
      }
    }
  }

  private finishRun(
    rule: Rule,
    ok: boolean,
    dryRun: boolean,
    message: string,
    actions: RuleActionResult[],
  ): RuleRunResult {
    this.setLastRun(rule.name, ok, message);
    return { name: rule.name, ok, dryRun, message, actions };
  }

  // --- helpers ----------------------------------------------------------------------------

  private emit(event: EventInput): void {
    const full = { ...event, at: this.now() } as RuleEvent;
    const log = event.type === "failure" || (event.type === "restore" && !event.ok) ? "warn" : "info";
    this.logger[log]({ event: full }, `rule ${event.rule}: ${event.message}`);
    if (!this.listened) {
      this.early.push(full);
      if (this.early.length > EARLY_EVENTS) this.early.shift();
    }
    this.events.next(full);
  }

  private setLastRun(name: string, ok: boolean, message: string): void {
    this.lastRuns.set(name, { at: this.now(), ok, message });
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

  private watched(): { inverter?: string; charger?: string } {
    const inventory = this.options.inventory;
    const inverter = (inventory.inverters.find((found) => found.controllable) ?? inventory.inverters[0])?.serial;
    const charger = inventory.evChargers[0]?.uuid;
    return { ...(inverter ? { inverter } : {}), ...(charger ? { charger } : {}) };
  }

  private conditionContext() {
    const now = this.now();
    return { now, timeZone: this.timeZone, state: this.state, importPrice: this.options.tariffs.import?.priceAt(now) };
  }

  private span(window: Interval): string {
    return `${localDateTimeText(window.start, this.timeZone)}-${localClockText(window.end, this.timeZone)}`;
  }
}

function controlOf(intent: Intent): { control?: string } {
  return intent.kind === "change" ? { control: intent.control } : {};
}

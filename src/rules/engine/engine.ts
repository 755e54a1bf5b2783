import { pino } from "pino";
import type { Observable, Subscription } from "rxjs";
import type { Logger } from "../../log/log.js";
import type { ExplainedSlot } from "../../optimiser/index.js";
import type {
  CarState,
  CheapWindow,
  GridCounters,
  HouseSavingsRange,
  Prices,
  RuleEvent,
  RuleRunResult,
  RuleStatus,
  RulesRuntime,
  RunNowOptions,
  RunPreview,
  SavingsSummary,
  TodayCost,
} from "../../rules-runtime/index.js";
import { HOUR_MS, localClockText, SLOT_MS } from "../../time/index.js";
import type { Rule } from "../file/schema.js";
import { isWindowTrigger, rulesTimeZone } from "../file/schema.js";
import { carTopicsOf } from "../house/car-topics.js";
import { carRules, deliveredTowardDeadline } from "../planners/car-windows.js";
import { modeLabel, type PriceHistory } from "../planners/optimise-windows.js";
import { PLAN_HOURS } from "../planners/preview.js";
import { type PlannedWindow, planRuleWindows } from "../planners/rule-windows.js";
import { replanWindow } from "../planners/window-replan.js";
import { windowWords } from "../planners/window-words.js";
import { CostMeter } from "../savings/cost-meter.js";
import { priceHistoryOrTariffs } from "../savings/price-history.js";
import { RuleActions, type WindowWriteParts } from "./actions.js";
import {
  CALIBRATION_ENDS_WINDOW,
  CALIBRATION_HOLDING,
  calibrationHeldTrigger,
  heldByCalibration,
  heldPlan,
} from "./calibration-hold.js";
import { CarLedger } from "./car-ledger.js";
import { CronClock } from "./cron-clock.js";
import { ImportGuard } from "./import-guard.js";
import { defaultInverter } from "./intents.js";
import { type LiveState, nextState, watchedDevices } from "./live-state.js";
import type { RulesOptions } from "./options.js";
import { PriceRecorder } from "./price-recorder.js";
import { PriceWatch } from "./price-watch.js";
import { RuleEvents } from "./rule-events.js";
import { RuleRunner } from "./rule-runner.js";
import { StateTriggers } from "./state-triggers.js";
import { Alarm, timersOn } from "./timers.js";
import { WindowBook } from "./window-book.js";
import { WorkQueue } from "./work-queue.js";

/** Plans are made again at least this often (and whenever the prices change). */
const REPLAN_MS = HOUR_MS;

/**
 * The running rules; see startRules(). A coordinator: it says when (the CronClock, the window
 * book's next window, price refreshes and replans, all on one Alarm on the engine's timers) and
 * hands the work on. The WindowBook knows which windows are planned and open and who holds which
 * control; the RuleRunner opens and closes windows and fires triggers; RuleActions sends the
 * actions and keeps the promise to restore. Every step runs on one WorkQueue, so none overlap.
 */
export class RulesEngine implements RulesRuntime {
  private readonly logger: Logger;
  private readonly now: () => number;
  /** The zone the rules' hours are read in (rulesTimeZone). */
  readonly timeZone: string;
  /** Today's cost from the inverters' grid counters, at each moment's prices. */
  private readonly cost: CostMeter;
  private readonly horizonMs: number;
  /** Highest priority first. */
  private readonly rules: readonly Rule[];
  private readonly enabled = new Map<string, boolean>();
  private readonly events: RuleEvents;
  private readonly queue: WorkQueue;
  private readonly alarm: Alarm;
  private readonly book = new WindowBook();
  private readonly actions: RuleActions;
  private readonly runner: RuleRunner;
  /** Watches the measured import while an optimise rule's window charges the car. */
  private readonly guard: ImportGuard;
  private readonly priceWatch: PriceWatch;
  private readonly priceRecorder: PriceRecorder;
  private readonly stateTriggers: StateTriggers;
  private cron: CronClock | undefined;
  private state: LiveState = {};
  private nextReplan = 0;
  /** A plan was made: from then on the battery's first charge known means planning again. */
  private planned = false;
  /** Each optimise rule's last plan, half-hour by half-hour with its reasons. */
  private readonly explained = new Map<string, () => readonly ExplainedSlot[]>();
  /** What the watched charger delivered, for an optimise rule's car. */
  private readonly carLedger = new CarLedger();
  private live: Subscription | undefined;
  /** Aborts price fetches in flight when the engine stops. */
  private readonly abort = new AbortController();

  constructor(private readonly options: RulesOptions) {
    const clock = options.clock;
    this.now = () => clock.now();
    this.logger = (options.logger ?? pino({ enabled: false })).child({ module: "rules" });
    this.timeZone = rulesTimeZone(options.rules, options.inventory().timezone);
    // The import tariff's standing charge (Octopus products API tariffs carry one) is part of the day's cost.
    this.cost = new CostMeter(this.timeZone, (at) => options.tariffs.import?.standingChargePerDay?.(at));
    this.horizonMs = (options.horizonHours ?? PLAN_HOURS) * HOUR_MS;
    this.rules = [...options.rules.rules].sort((a, b) => b.priority - a.priority);
    this.events = new RuleEvents(this.logger, this.now);
    this.queue = new WorkQueue(this.logger);
    this.alarm = new Alarm(timersOn(clock, this.now));
    const currency = options.rules.tariffs.currency;
    this.priceWatch = new PriceWatch(options.tariffs, currency, this.horizonMs, this.logger);
    this.priceRecorder = new PriceRecorder(options.tariffs, options.store.publishedPrices, this.horizonMs, this.logger);
    this.stateTriggers = new StateTriggers(this.rules);
    const writeParts: WindowWriteParts = {
      gate: options.gate,
      reads: options.reads,
      obligations: options.store.ruleObligations,
      inventory: options.inventory,
      book: this.book,
      events: this.events,
      logger: this.logger,
      now: this.now,
    };
    this.guard = new ImportGuard({ ...writeParts, plugged: () => this.state.evPlugged });
    this.actions = new RuleActions({
      ...writeParts,
      stopping: () => this.queue.closed,
      dryRun: (rule) => this.isDryRun(rule),
      chargingStarted: (rule, uuid) => this.guard.charging(rule, uuid),
    });
    this.runner = new RuleRunner({
      book: this.book,
      actions: this.actions,
      events: this.events,
      obligations: options.store.ruleObligations,
      prices: this.priceWatch,
      importTariff: options.tariffs.import,
      timeZone: this.timeZone,
      logger: this.logger,
      now: this.now,
      state: () => this.state,
      reschedule: () => this.schedule(),
      planNow: (name, now) => {
        const slot = this.explainedAt(name, now);
        return slot ? { start: slot.start, action: slot.action, reason: slot.reason } : undefined;
      },
    });
  }

  get events$(): Observable<RuleEvent> {
    return this.events.events$;
  }

  async start(): Promise<void> {
    const store = this.options.store.ruleObligations;
    for (const rule of this.rules) this.enabled.set(rule.name, store.enabled(rule.name) ?? rule.enabled);
    await this.refreshPrices();
    await this.runner.resumeObligations();
    this.guardResumedWindows();
    this.live = this.options.live$.subscribe((seen) => {
      if (seen.kind === "charger-meter") {
        if (seen.uuid === watchedDevices(this.options.inventory()).charger)
          this.carLedger.meter(seen.importKwh, seen.at);
        return;
      }
      const before = this.state;
      this.state = nextState(this.state, seen, watchedDevices(this.options.inventory()));
      if (seen.kind === "charger" && this.state !== before && this.state.evStatus === seen.status)
        this.carLedger.see(seen.status, this.now());
      if (seen.kind === "inverter" && (before.calibrating ?? false) !== (this.state.calibrating ?? false))
        this.calibrationChanged(seen.serial);
      // A car plugged in or out changes an optimise rule's plan now, not at the next half-hour.
      if (before.evPlugged !== this.state.evPlugged && this.planned && this.plansCar()) {
        this.nextReplan = this.now();
        this.queue.enqueue(() => this.tick());
      }
      // Each reading of the watched inverter's grid power is one for the import guard.
      const importW = this.state.gridImport;
      if (seen.kind === "inverter" && seen.gridPower !== undefined && importW !== undefined && this.state !== before)
        this.queue.enqueue(() => this.guard.see(importW));
      if (this.state === before) return;
      // A plan made before the battery's charge was known is made again once it is.
      if (before.batterySoc === undefined && this.state.batterySoc !== undefined && this.planned && this.needsSoc()) {
        this.nextReplan = this.now();
        this.queue.enqueue(() => this.tick());
      }
      this.queue.enqueue(async () => this.checkStates());
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
    const words = {
      rules: this.options.rules,
      tariffs: this.options.tariffs,
      timeZone: this.timeZone,
      batterySoc: this.state.batterySoc,
      defaultInverter: defaultInverter(this.options.inventory()),
    };
    return this.options.rules.rules.map((rule) => {
      const open = this.book.openOf(rule.name);
      // An open window's own interval, with what its plan said (a run now or a resumed one has none).
      const next = open ? { ...open.planned, start: open.start, end: open.end } : this.book.nextPlanned(rule.name, now);
      const lastRun = this.actions.lastRun(rule.name);
      const slot = this.explainedAt(rule.name, now);
      const guard = this.guard.status(rule.name);
      return {
        name: rule.name,
        enabled: this.isEnabled(rule.name),
        dryRun: this.isDryRun(rule),
        priority: rule.priority,
        ...(next ? { nextWindow: { start: next.start, end: next.end, readable: windowWords(rule, next, words) } } : {}),
        ...(lastRun ? { lastRun } : {}),
        ...(slot ? { planNow: { start: slot.start, action: slot.action, reason: slot.reason } } : {}),
        ...(guard ? { importGuard: guard } : {}),
      };
    });
  }

  /** An optimise rule's last plan, half-hour by half-hour with its reasons (as `rules plan --json` gives it); empty for other rules. */
  explainedPlan(name: string): readonly ExplainedSlot[] {
    return this.explained.get(name)?.() ?? [];
  }

  /** The half-hour of an optimise rule's last plan that holds `now`. */
  private explainedAt(name: string, now: number): ExplainedSlot | undefined {
    return this.explainedPlan(name).find((row) => row.start <= now && now < row.start + SLOT_MS);
  }

  setEnabled(name: string, enabled: boolean): void {
    const rule = this.rule(name);
    this.enabled.set(rule.name, enabled);
    this.options.store.ruleObligations.setEnabled(rule.name, enabled, this.now());
    this.logger.info({ rule: name, enabled }, enabled ? "rule switched on" : "rule switched off");
    // Switched off mid-window: put things back now rather than at the window's end.
    this.queue.enqueue(async () => {
      if (!enabled && this.book.openOf(name)) await this.runner.closeWindow(rule, "the rule was switched off");
      await this.tick();
    });
  }

  runNow(name: string, options: RunNowOptions = {}): Promise<RuleRunResult> {
    return this.inTurn(name, (rule) => this.runner.runManually(rule, options.respectConditions === true));
  }

  previewRun(name: string): Promise<RunPreview> {
    return this.inTurn(name, async (rule) => this.runner.previewManually(rule));
  }

  dryRunNow(name: string): Promise<RunPreview> {
    return this.inTurn(name, async (rule) => {
      const preview = this.runner.previewManually(rule);
      const dryRun = { type: "action", rule: name, status: "dry-run", dry_run: true } as const;
      if (preview.actions.length === 0)
        this.events.emit({ ...dryRun, action: "run now", message: `dry run from the web page: ${preview.message}` });
      for (const action of preview.actions)
        this.events.emit({
          ...dryRun,
          action: action.action,
          message: `dry run from the web page: would send ${action.words}${action.conflict ? ` (${action.conflict})` : ""}`,
        });
      return preview;
    });
  }

  /** Runs `work` with the rule on the engine's queue, after what is already due. */
  private inTurn<T>(name: string, work: (rule: Rule) => Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      // An unknown name rejects like any other failure, rather than throwing before a promise exists.
      const rule = this.rule(name);
      if (this.queue.closed) throw new Error(`rule ${name} was not run: the rules engine is stopped`);
      void this.queue
        .enqueue(async () => {
          try {
            resolve(await work(rule));
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

  addCounters(serial: string, at: number, counters: GridCounters): boolean {
    return this.cost.add(serial, at, counters, this.prices(at));
  }

  todayCost(now: number): TodayCost | undefined {
    this.cost.rollOver(now);
    return this.cost.value;
  }

  savings(now: number): SavingsSummary | undefined {
    try {
      return this.options.savings?.(now);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, "the savings could not be read from the store");
      return undefined;
    }
  }

  savingsBetween(from: number, to: number): HouseSavingsRange | undefined {
    try {
      return this.options.savingsRange?.(from, to);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, "the savings could not be read from the store");
      return undefined;
    }
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
    this.live?.unsubscribe();
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
      this.book.nextDue(now, (rule) => this.isEnabled(rule) && !this.holdsForCalibration(rule)),
    );
    this.alarm.set(next, () => {
      this.queue.enqueue(() => this.tick());
    });
  }

  /** Does everything due now, in order: close windows, refresh prices and plans, open windows, cron. */
  private async tick(): Promise<void> {
    let now = this.now();
    // An optimise rule's window that ends as a re-plan is due waits for it: the new plan may carry it on.
    const replanning = now >= this.nextReplan;
    for (const name of this.book.ended(now)) {
      if (replanning && this.book.openOf(name)?.planned?.optimised) continue;
      await this.runner.closeWindow(this.ruleOrStub(name), "the window ended");
    }
    if (now >= this.priceWatch.nextRefresh) await this.refreshPrices();
    now = this.now();
    if (now >= this.nextReplan) await this.replan();
    for (const name of this.book.ended(now)) await this.runner.closeWindow(this.ruleOrStub(name), "the window ended");
    for (const rule of this.rules) {
      if (!this.isEnabled(rule.name) || this.book.openOf(rule.name)) continue;
      if (this.holdsForCalibration(rule.name)) continue;
      const window = this.book.dueToOpen(rule.name, now);
      if (window) await this.runner.openWindow(rule, window);
    }
    for (const name of this.cron?.due(now) ?? []) {
      if (this.isEnabled(name)) await this.fireUnlessHeld(this.rule(name), "cron");
    }
    this.schedule();
  }

  private async refreshPrices(): Promise<void> {
    const now = this.now();
    const changed = await this.priceWatch.refresh(now, this.abort.signal);
    this.priceRecorder.record(now);
    if (changed) this.nextReplan = now;
  }

  private async replan(): Promise<void> {
    const now = this.now();
    // The optimiser re-plans every half-hour with the newest state and prices (model-predictive control).
    const optimising = this.rules.some((rule) => rule.when.some((trigger) => trigger.optimise !== undefined));
    this.nextReplan = optimising ? Math.floor(now / SLOT_MS) * SLOT_MS + SLOT_MS : now + REPLAN_MS;
    const inventory = this.options.inventory();
    const serial = watchedDevices(inventory).inverter;
    if (this.needsSoc() && this.state.batterySoc === undefined)
      this.logger.debug("planning without the battery's charge: no reading of it has come yet");
    this.planned = true;
    const inverter = inventory.inverters.find((found) => found.serial === serial);
    const house = optimising ? this.options.house?.(now) : undefined;
    // Once per re-plan, not per rule: each rule with windows is given the same.
    const history = optimising ? this.priceHistory(now) : undefined;
    for (const rule of this.rules) {
      if (!rule.when.some(isWindowTrigger)) continue;
      const { windows, notes, explained } = planRuleWindows(rule, {
        rules: this.options.rules,
        tariffs: this.options.tariffs,
        timeZone: this.timeZone,
        now,
        to: now + this.horizonMs,
        soc: this.state.batterySoc,
        capacityKwh: inverter?.batteryCapacityKwh,
        ...(optimising && house ? { house } : {}),
        car: {
          plugged: this.state.evPlugged,
          topic: (topic) => this.options.carTopic?.(topic),
          deliveredKwh: (from, to, kw) => this.carLedger.deliveredKwh(from, to, kw),
        },
        ...(history ? { priceHistory: history } : {}),
      });
      this.book.replan(rule.name, await this.followPlan(rule, windows, now), now);
      if (this.state.calibrating && this.holdsForCalibration(rule.name)) {
        const held = heldPlan(explained(), now);
        this.explained.set(rule.name, () => held);
      } else this.explained.set(rule.name, explained);
      for (const note of notes) this.logger.info({ rule: rule.name }, note);
    }
  }

  /**
   * An optimise rule's open window follows the new plan (see replanWindow): it goes on, is written
   * again, or ends now so that the window of the plan's new mode can open. Returns the new plan's
   * windows less the one that became the open window.
   */
  private async followPlan(rule: Rule, windows: readonly PlannedWindow[], now: number): Promise<PlannedWindow[]> {
    const held = this.book.openOf(rule.name)?.planned;
    if (!held?.optimised || !this.isEnabled(rule.name)) return [...windows];
    const index = windows.findIndex((window) => window.optimised && window.start <= now && now < window.end);
    const next = windows[index];
    const decision = replanWindow(held.optimised, next?.optimised);
    if (decision.kind === "end") {
      const ended = (this.book.openOf(rule.name)?.end ?? now) <= now;
      await this.runner.closeWindow(rule, ended ? "the window ended" : `re-planned: ${decision.why}`);
      if (!this.book.openOf(rule.name)) this.book.forget(rule.name, held.period);
      return [...windows];
    }
    const followed = decision.window;
    const window: PlannedWindow = {
      ...held,
      end: followed.end,
      label: modeLabel(followed),
      cost: next?.cost,
      plan: { ...next?.plan, "plan.target_soc": followed.targetSoc },
      optimised: followed,
    };
    this.book.reshape(rule.name, window);
    if (decision.kind === "rewrite")
      await this.runner.rewriteWindow(
        rule,
        window,
        `re-planned: ${decision.why} (${window.label} until ${localClockText(window.end, this.timeZone)})`,
      );
    return windows.filter((_, at) => at !== index);
  }

  /**
   * The prices published over the last PRICE_HISTORY_DAYS, for the optimiser's price forecast:
   * what the tariffs hold and what the store kept from before a restart (see priceHistory). A
   * store that cannot be read leaves the tariffs' own.
   */
  private priceHistory(now: number): PriceHistory {
    const { tariffs, store } = this.options;
    return priceHistoryOrTariffs(tariffs, store.publishedPrices, this.timeZone, now, (err) =>
      this.logger.warn({ err }, "the stored prices could not be read: the price forecast learns from the tariffs' own"),
    );
  }

  /** Windows resumed after a restart that charge the car are watched by the import guard again. */
  private guardResumedWindows(): void {
    for (const rule of this.rules) {
      const open = this.book.openOf(rule.name);
      const promised =
        open?.obligation === undefined ? undefined : this.options.store.ruleObligations.get(open.obligation);
      if (promised?.status === "open") this.guard.resume(rule, promised.restore.controls);
    }
  }

  /** Whether a rule's plan depends on the battery's charge. */
  private needsSoc(): boolean {
    return this.rules.some((rule) =>
      rule.when.some((trigger) => trigger.battery !== undefined || trigger.optimise !== undefined),
    );
  }

  /**
   * The car as the optimise rules plan it now: its plug state, the car topics' last good numbers
   * and what the charger delivered toward each car rule's deadline (the Plan page and `rules plan`
   * plan from it); undefined when no rule plans a car.
   */
  carState(): CarState | undefined {
    if (!this.plansCar()) return undefined;
    const now = this.now();
    const topics: Record<string, number> = {};
    for (const topic of carTopicsOf(this.rules)) {
      const value = this.options.carTopic?.(topic);
      if (value !== undefined) topics[topic] = value;
    }
    const deliveredKwh: Record<string, number> = {};
    for (const { rule, spec } of carRules(this.rules))
      deliveredKwh[rule] = deliveredTowardDeadline(spec, this.carLedger, {
        now,
        timeZone: this.timeZone,
        evChargeKw: this.options.rules.ev.charge_kw,
      });
    return { plugged: this.state.evPlugged ?? null, topics, deliveredKwh };
  }

  calibrating(): boolean {
    return this.state.calibrating === true;
  }

  /** Whether an optimise rule plans a car. */
  private plansCar(): boolean {
    return carRules(this.rules).length > 0;
  }

  private checkStates(): void {
    for (const rule of this.stateTriggers.crossed(this.state)) {
      if (this.isEnabled(rule.name)) this.queue.enqueue(() => this.fireUnlessHeld(rule, "state"));
    }
  }

  /**
   * The watched inverter's calibration started or ended: said once, and planned again now, so the
   * plan says it holds (or plans again) and a window held back opens once it ends.
   */
  private calibrationChanged(serial: string): void {
    if (this.state.calibrating) {
      this.logger.info({ inverter: serial }, CALIBRATION_HOLDING);
      this.queue.enqueue(() => this.endWindowsForCalibration());
    } else this.logger.info({ inverter: serial }, "calibration ended: planning again");
    if (!this.planned) return;
    this.nextReplan = this.now();
    this.queue.enqueue(() => this.tick());
  }

  /** A calibration began: each open window that changes the inverter ends now, and what it changed is put back through the gate. */
  private async endWindowsForCalibration(): Promise<void> {
    for (const rule of this.rules) {
      if (!this.book.openOf(rule.name) || !this.holdsForCalibration(rule.name)) continue;
      this.logger.info({ rule: rule.name }, CALIBRATION_ENDS_WINDOW);
      await this.runner.closeWindow(rule, CALIBRATION_ENDS_WINDOW);
    }
  }

  /** A cron or state trigger's actions, unless they would change the calibrating inverter: then held, and said so. */
  private async fireUnlessHeld(rule: Rule, why: "cron" | "state"): Promise<void> {
    if (!this.holdsForCalibration(rule.name)) return this.runner.fire(rule, why);
    const message = calibrationHeldTrigger(why);
    this.actions.record(rule.name, true, message);
    this.logger.info({ rule: rule.name, trigger: why }, message);
  }

  /** Whether the rule's windows wait: the watched inverter calibrates and they would change it. */
  private holdsForCalibration(name: string): boolean {
    if (!this.state.calibrating) return false;
    const inventory = this.options.inventory();
    const serial = watchedDevices(inventory).inverter;
    const rule = this.rules.find((found) => found.name === name);
    return serial !== undefined && rule !== undefined && heldByCalibration(rule, serial, defaultInverter(inventory));
  }

  // --- helpers ----------------------------------------------------------------------------

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
    return (
      this.rules.find((found) => found.name === name) ??
      ({ name, priority: 0, wins_over: [] as string[], restore: "after_window" } as Rule)
    );
  }
}

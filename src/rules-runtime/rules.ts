import type { Observable } from "rxjs";

/**
 * What the rest of the daemon (the MQTT side, app.ts) sees of the running rules. Fields may be
 * added; none of these will change shape.
 */

export interface TimeWindow {
  /** Epoch ms. */
  readonly start: number;
  /** Epoch ms. */
  readonly end: number;
}

/** A rule's window now open or next, with what it does in words, as the Plan page words it. */
export interface RuleWindow extends TimeWindow {
  /** The window's actions in words ("Timed charge to 100% 02:30–05:30 on inverter SD2024G001"). */
  readonly readable: readonly string[];
}

/**
 * What the running rules know of the car that an optimise rule plans, as data: the Plan page
 * and `rules plan` plan the car from it as the engine does.
 */
export interface CarState {
  /** From the charger's status; null until it has reported one. */
  readonly plugged: boolean | null;
  /** The last good number on each of the rules' car topics (target_topic, soc_topic) that has had one. */
  readonly topics: Readonly<Record<string, number>>;
  /** kWh the charger delivered toward each car rule's current deadline (since the previous `by`), by rule name. */
  readonly deliveredKwh: Readonly<Record<string, number>>;
}

export interface RuleLastRun {
  /** Epoch ms. */
  readonly at: number;
  readonly ok: boolean;
  readonly message: string;
}

export interface RuleStatus {
  readonly name: string;
  /** Switched on (rules.yaml's enabled:, or the last setEnabled, which is persisted). */
  readonly enabled: boolean;
  /** The rule's own dry_run or the file's. */
  readonly dryRun: boolean;
  readonly priority: number;
  /** The planned window now open, or the next one. */
  readonly nextWindow?: RuleWindow;
  readonly lastRun?: RuleLastRun;
  /** An optimise rule's plan for the half-hour now: what it does and why. */
  readonly planNow?: PlannedHalfHour;
  /** The import guard holds the car back now (a lower current, or its charging stopped). */
  readonly importGuard?: ImportGuardStatus;
}

export interface ImportGuardStatus {
  /** When the guard last cut the car, ms since the epoch. */
  readonly since: number;
  /** e.g. "import 11.2 kW over the 10 kW limit: car current 32 A → 26 A". */
  readonly message: string;
}

export interface PlannedHalfHour {
  /** Start of the half-hour, ms since the epoch. */
  readonly start: number;
  /** charge, hold, self-use or export. */
  readonly action: string;
  /** One line, e.g. "charge: 7.1p is among the 4 cheapest half-hours before the 16:00 peak at 32p". */
  readonly reason: string;
}

export interface RuleActionResult {
  /** e.g. `preset timed-charge {"enabled":true,...}`. */
  readonly action: string;
  readonly ok: boolean;
  /** Nothing was sent: dry run, lost a conflict, or the device already had the value. */
  readonly skipped: boolean;
  readonly message: string;
}

export interface RuleRunResult {
  readonly name: string;
  readonly ok: boolean;
  readonly dryRun: boolean;
  readonly message: string;
  readonly actions: readonly RuleActionResult[];
}

/** One action a run would send, in words, and the device it acts on. */
export interface RunPreviewAction {
  /** e.g. "timed export on inverter SA123: on, 17:00–19:00 down to 20%". */
  readonly words: string;
  /** As the engine sends and logs it (the audit's and the rule events' text). */
  readonly action: string;
  /** The device it acts on (an inverter's serial, a charger's id); null for a notification. */
  readonly device: string | null;
  /** Another rule holds the control: it would not be sent, or it would take over; absent otherwise. */
  readonly conflict?: string;
}

/** One part of a rule's if:, in words, and whether it holds now. */
export interface ConditionCheck {
  /** e.g. "battery SoC above 60%". */
  readonly text: string;
  /** e.g. "it is 4%"; "not known yet". */
  readonly now: string;
  /** Undefined while the value it needs is not known. */
  readonly holds: boolean | undefined;
}

/** What "run now" would do, said before anything is sent. */
export interface RunPreview {
  readonly name: string;
  /** Something would be sent (or logged, in a dry run). */
  readonly ok: boolean;
  readonly dryRun: boolean;
  /** Why nothing would be sent, or a summary. */
  readonly message: string;
  /** For how long: the window the run would act over (its end restores); absent for a rule without windows. */
  readonly window?: TimeWindow;
  readonly actions: readonly RunPreviewAction[];
  /** Every part of the rule's if:, each checked now; empty without one. */
  readonly conditions: readonly ConditionCheck[];
  /** The whole if: holds now (true without one). */
  readonly conditionsHold: boolean;
  /** An optimise rule's plan for the half-hour holding now: what run now applies. */
  readonly planNow?: PlannedHalfHour;
}

export interface RunNowOptions {
  /** Send nothing when the rule's if: does not hold now (the page's run, unless its user overrides). */
  readonly respectConditions?: boolean;
}

export interface Prices {
  readonly import?: number;
  readonly export?: number;
  /** ISO 4217, e.g. GBP; prices are per kWh. */
  readonly currency: string;
}

export interface CheapWindow extends TimeWindow {
  /** Average import price per kWh over the window. */
  readonly price: number;
}

interface EventBase {
  /** The rule's name. */
  readonly rule: string;
  /** Epoch ms (the engine's clock). */
  readonly at: number;
  readonly message: string;
}

/** Everything the engine does or means to do, for logging and publishing. */
export type RuleEvent =
  | (EventBase & {
      readonly type: "action";
      /**
       * planned: about to be sent; applied: sent; skipped: not sent (the device had the value, or
       * the rule lost a conflict); dry-run: logged only (dry_run is true); failed: refused or failed.
       */
      readonly status: "planned" | "applied" | "skipped" | "dry-run" | "failed";
      readonly action: string;
      readonly dry_run: boolean;
      /** The control acted on, e.g. `preset:SA123:timed-charge`. */
      readonly control?: string;
    })
  | (EventBase & {
      readonly type: "conflict";
      /** The rule that won the control (higher priority). */
      readonly winner: string;
      /** The rule whose action was not sent. */
      readonly loser: string;
      readonly control: string;
      readonly action: string;
    })
  | (EventBase & {
      readonly type: "restore";
      readonly ok: boolean;
      /** snapshot: the API's snapshot; local: the values recorded before the change. */
      readonly method: "snapshot" | "local";
    })
  | (EventBase & { readonly type: "failure"; readonly error: string })
  | (EventBase & {
      readonly type: "window";
      /** replan: an open window's mode, target or end changed with a new plan. */
      readonly phase: "open" | "replan" | "close";
      readonly window: TimeWindow;
    });

/** One inverter's daily grid counters, kWh (the inverter's own, reset at its midnight). */
export interface GridCounters {
  /** Today's grid import so far. */
  readonly import: number;
  /** Today's grid export so far; 0 when the meter does not say. */
  readonly export: number;
}

/** Today's electricity cost so far, in the tariffs' currency, and when it started counting (epoch ms). */
export interface TodayCost {
  readonly cost: number;
  readonly since: number;
}

/** What the battery saved over a period, in the tariffs' currency; null where it cannot be said. */
export interface PeriodSavings {
  /** Epoch ms: the period's first local midnight (yesterday's, or the month's first day's). */
  readonly since: number;
  /** Against the same house with no battery. */
  readonly vsNoBattery: number;
  /** Against the battery left in eco (self-consumption) all along; null without a SoC reading. */
  readonly vsEcoOnly: number | null;
  /**
   * How the period was priced: `published` prices throughout; `fallback` where some half-hours
   * had no published price (past Agile days the daemon had not fetched, say) and took the
   * tariff's fallback; `incomplete` where some had no price at all and are left out.
   */
  readonly prices: "published" | "fallback" | "incomplete";
  /** Half-hours priced with the tariff's fallback. */
  readonly estimatedHalfHours: number;
  /** Metered half-hours left out for want of any price. */
  readonly unpricedHalfHours: number;
}

/** One local day's cost against the same house with no battery and with the battery in eco only. */
export interface DaySavings {
  /** YYYY-MM-DD in the rules' zone. */
  readonly day: string;
  readonly slots: number;
  readonly daySlots: number;
  readonly actual: number;
  readonly noBattery: number;
  readonly ecoOnly: number | null;
  readonly savedVsNoBattery: number;
  readonly savedVsEcoOnly: number | null;
}

export interface MonthSavings {
  /** YYYY-MM. */
  readonly month: string;
  readonly days: number;
  readonly actual: number;
  readonly noBattery: number;
  readonly savedVsNoBattery: number;
  readonly savedVsEcoOnly: number;
}

export interface SavingsRange {
  readonly days: readonly DaySavings[];
  readonly months: readonly MonthSavings[];
}

/** The house's savings over some months, and those of some of its inverters over the same months. */
export interface HouseSavingsRange extends SavingsRange {
  /**
   * Some inverters' own savings (one inverter's, a plant's): their own counters' metered cost
   * against the same inverters with no battery; no standing charge, no eco-only figure (null).
   */
  group(members: readonly string[]): SavingsRange;
}

/** Yesterday's and this month's savings (the month up to now); undefined parts had no metered data. */
export interface SavingsSummary {
  readonly yesterday?: PeriodSavings;
  readonly month?: PeriodSavings;
}

export interface RulesRuntime {
  list(): RuleStatus[];
  /** Switches a rule on or off; persisted in the store, so it survives restarts. Throws for an unknown name. */
  setEnabled(name: string, enabled: boolean): void;
  /**
   * Runs the rule's actions now (conditions are not checked; the rule's dry run still holds). A
   * window rule outside its window opens one from now for its next planned window's length, and
   * puts things back when it ends; with no window planned it is refused (ok false, nothing sent).
   */
  runNow(name: string, options?: RunNowOptions): Promise<RuleRunResult>;
  /** What runNow would do now, sending nothing and recording nothing. */
  previewRun?(name: string): Promise<RunPreview>;
  /** The preview, recorded as a dry run in the rule events (each action with status dry-run); nothing sent. */
  dryRunNow?(name: string): Promise<RunPreview>;
  /** Import and export price per kWh at `at` (default now). */
  prices(at?: number): Prices;
  /** The cheapest import window planned next (from the rules' planned windows), if any. */
  nextCheapWindow(): CheapWindow | undefined;
  /** The car as the optimise rules plan it now; undefined when no rule plans a car. */
  carState?(): CarState | undefined;
  /** Whether the watched inverter's battery calibration runs (the rules hold); undefined: not known. */
  calibrating?(): boolean;
  /**
   * Takes one inverter's grid counters at `at` into today's cost, at the prices of that moment;
   * true when the cost changed or began. The first counters of an inverter are a baseline only.
   */
  addCounters(serial: string, at: number, counters: GridCounters): boolean;
  /** Today's cost at `now` (a new local day starts it again); undefined before any counters came. */
  todayCost(now: number): TodayCost | undefined;
  /** What the battery saved yesterday and this month, from the store; left out, not reported. */
  savings?(now: number): SavingsSummary | undefined;
  /**
   * The house's savings for each local day and month of the months [from, to) (epoch ms) touches,
   * each month whole up to the last complete half-hour (this month's is `saved_month`); undefined when not known.
   */
  savingsBetween?(from: number, to: number): HouseSavingsRange | undefined;
  readonly events$: Observable<RuleEvent>;
  /** Stops triggers and timers; obligations still open stay in the store for the next start. */
  stop(): Promise<void>;
}

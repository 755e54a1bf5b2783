import type { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import type { ControlValues } from "../control/index.js";
import type { CloudRefusal, DevicePathHealth } from "../health/index.js";
import type { Logger } from "../log/log.js";
import type { RulesRuntime } from "../rules-runtime/index.js";
import type { Store } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import type { RequestBudgetState } from "../vocabulary/request-budget.js";
import type { SpawnCli } from "./backtest-child.js";
import type { PricesAt } from "./history-api.js";
import type { CarTarget } from "./live-cars.js";
import type { PlanHelp, PlanLive, PlanView } from "./plan-view.js";

export interface WebOptions {
  readonly config: Config["web"];
  readonly bus: EventBus;
  readonly store: Store | undefined;
  readonly storePath: string;
  readonly inventory: () => Inventory;
  /** The running rules, once they run (their seam, ports/rules.ts). */
  readonly rules: () => RulesRuntime | undefined;
  /** True while a configured rules file is still loading: a rule command is told to wait, not that there are none. */
  readonly rulesStarting?: () => boolean;
  /** The Plan page: what the rules mean to do over the next hours, given the battery's SoC now. */
  readonly plan: (live: PlanLive) => Promise<PlanView | undefined>;
  /** What an empty Plan page says about adding rules; left out, where the configuration is is not known. */
  readonly planHelp?: PlanHelp;
  readonly budget: () => RequestBudgetState | undefined;
  /** Import and export prices at an instant, for the cost per day; left out, no cost is shown. */
  readonly prices?: PricesAt;
  /** The house's zone (IANA; the account's, else the configured one): the page shows times in it and names it. */
  readonly timeZone?: () => string;
  readonly version: string;
  readonly simulated: boolean;
  readonly logger: Logger;
  /** The built page; dist/web/public by default. */
  readonly assetsDir?: string;
  /** The daemon's one clock; the system clock by default. */
  readonly clock: Clock;
  /** With `source: auto`: each device's path, by device id. */
  readonly paths?: () => Readonly<Record<string, DevicePathHealth>>;
  /** The cloud's refusal while it refuses the daemon. */
  readonly refusal?: () => CloudRefusal | undefined;
  /** How many next ports to try when the configured one is taken. */
  readonly portAttempts?: number;
  /** Where live data comes from by configuration; `cloud` when left out. */
  readonly source?: "cloud" | "local" | "auto";
  /** A device's control values as last read or written (the control gate's record), for the battery's mode. */
  readonly controls?: (serial: string) => ControlValues;
  /** The optimise rules' cars: targets and deadlines, their topics read. */
  readonly carTargets?: () => readonly CarTarget[];
  /** The charger's own path carrying it now (OCPP while its charge point is connected, then Modbus); undefined: neither. */
  readonly chargerPath?: (uuid: string) => "OCPP" | "Modbus" | undefined;
  /** Each device's writes today and the daily budget (the control gate's), when there is a budget. */
  /**
   * The Backtest page's runs: the CLI options naming this daemon's rules file and store (or none,
   * for the demo house the CLI finds itself); left out, POST /api/backtest answers 503.
   */
  readonly backtest?: { readonly args: readonly string[]; readonly spawn?: SpawnCli };
  readonly writesToday?: () =>
    | { readonly budget: number; readonly devices: Readonly<Record<string, number>> }
    | undefined;
}

import type { Observable, SchedulerLike } from "rxjs";
import type { CloudClient } from "../../cloud/client.js";
import type {
  ChangeOutcome,
  ChangeRequest,
  DeviceAction,
  DeviceActionOutcome,
  Requester,
} from "../../control/index.js";
import type { Logger } from "../../log.js";
import type { RuleObligations } from "../../store/index.js";
import type { Availability, DeviceState } from "../../telemetry/index.js";
import type { Inventory } from "../../telemetry/inventory.js";
import type { HouseForecast } from "../planners/optimise-windows.js";
import type { RulesFile } from "../schema.js";
import type { Tariff } from "../tariffs/index.js";

/** The part of the ControlGate the rules use. */
export interface RulesGate {
  apply(request: ChangeRequest, requester: Requester): Promise<ChangeOutcome>;
  act(action: DeviceAction, requester: Requester): Promise<DeviceActionOutcome>;
}

export interface RulesOptions {
  /** rules.yaml as loadRules() returns it. */
  readonly rules: RulesFile;
  /** Built from rules.tariffs (createTariff); the engine calls their refresh() when each asks to be refreshed. */
  readonly tariffs: { readonly import?: Tariff; readonly export?: Tariff };
  readonly gate: RulesGate;
  readonly client: CloudClient;
  readonly store: { readonly ruleObligations: RuleObligations };
  readonly inventory: Inventory;
  /** The daemon's telemetry. */
  readonly readings$: Observable<DeviceState | Availability>;
  /**
   * Timers. Its now() must read the same clock as `now`: the default asyncScheduler runs on the
   * wall clock; tests pass a scheduler on the simulator's virtual clock. Cron triggers, windows
   * and price refreshes all run on it.
   */
  readonly scheduler?: SchedulerLike;
  /** Epoch ms; the scheduler's now() when left out. */
  readonly now?: () => number;
  readonly logger?: Logger;
  /** Every rule dry-runs (as well as rules.yaml's dry_run and each rule's own). */
  readonly dryRun?: boolean;
  /** The house's consumption and solar forecast from now, for optimise rules; left out, not modelled. */
  readonly house?: (now: number) => HouseForecast | undefined;
  /** How far ahead windows are planned; 48 hours by default. */
  readonly horizonHours?: number;
}

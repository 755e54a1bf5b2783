import type { Observable } from "rxjs";
import type {
  ChangeOutcome,
  ChangeRequest,
  DeviceAction,
  DeviceActionOutcome,
  DeviceReads,
  Requester,
} from "../../control/index.js";
import type { Logger } from "../../log/log.js";
import type { HouseSavingsRange, SavingsSummary } from "../../rules-runtime/index.js";
import type { PublishedPrices, RuleObligations } from "../../store/index.js";
import type { Inventory } from "../../telemetry/index.js";
import type { Clock } from "../../time/index.js";
import type { RulesFile } from "../file/schema.js";
import type { HouseForecast } from "../planners/optimise-windows.js";
import type { Tariff } from "../tariffs/index.js";
import type { LiveObservation } from "./live-state.js";

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
  /** What a device holds now, read only: saved before a rule's change, compared before its restore. */
  readonly reads: DeviceReads;
  /** The promises to restore, and the tariffs' published prices (kept after each refresh, read for the price forecast). */
  readonly store: { readonly ruleObligations: RuleObligations; readonly publishedPrices: PublishedPrices };
  /** The devices as last listed: the list may change while the rules run. */
  readonly inventory: () => Inventory;
  /**
   * The devices' fresh values (battery, solar, grid, the charger's status), from the bus. What
   * is already known is given on subscribing, so that the first plan knows the battery's charge.
   */
  readonly live$: Observable<LiveObservation>;
  /** The daemon's one clock: now, cron triggers, windows and price refreshes all run on it. */
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Every rule dry-runs (as well as rules.yaml's dry_run and each rule's own). */
  readonly dryRun?: boolean;
  /** The house's consumption and solar forecast from now, for optimise rules; left out, not modelled. */
  readonly house?: (now: number) => HouseForecast | undefined;
  /** Yesterday's and this month's savings from the store; left out, not reported. */
  readonly savings?: (now: number) => SavingsSummary | undefined;
  /** The last good number on an optimise rule's car topic (CarTopics.value); left out, none. */
  readonly carTopic?: (topic: string) => number | undefined;
  /** The savings of the local months [from, to) (epoch ms) touches, each whole to the last complete half-hour, for the History page. */
  readonly savingsRange?: (from: number, to: number) => HouseSavingsRange;
  /** How far ahead windows are planned; 48 hours by default. */
  readonly horizonHours?: number;
}

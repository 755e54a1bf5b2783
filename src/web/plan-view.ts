import type { CarState } from "../rules-runtime/index.js";

/**
 * What the Plan page shows: the next hours of prices, each rule's planned windows and actions,
 * the windows that overlap (conflicts) and the expected battery SoC. app-web.ts makes it from
 * what `rules plan` computes; the house model can replace that function without touching web/.
 */
export interface PlanSlot {
  /** Epoch ms; each slot is half an hour. */
  readonly start: number;
  readonly import: number | null;
  readonly export: number | null;
  readonly estimated: boolean;
}

export interface PlanWindow {
  readonly start: number;
  readonly end: number;
  /** e.g. "cheapest 3 h before 07:00". */
  readonly trigger: string;
  /** As sent (templates filled), for the dry run's answer. */
  readonly actions: readonly string[];
  /** The same actions in words, as the page shows them. */
  readonly readable: readonly string[];
}

/** One of the optimiser's half-hours with the numbers behind it and why (the optimiser's ExplainedSlot). */
export interface PlanExplainedSlot {
  readonly start: number;
  readonly action: "charge" | "hold" | "self-use" | "export";
  readonly importPrice: number;
  readonly exportPrice: number;
  /** Expected SoC at the half-hour's end, %. */
  readonly socPercent: number;
  readonly loadKwh: number;
  readonly solarKwh: number;
  readonly importKwh: number;
  readonly exportKwh: number;
  readonly cost: number;
  readonly runningCost: number;
  readonly reason: string;
  /** The car's charging in the half-hour, kWh (within loadKwh), when the rule plans a car. */
  readonly carKwh?: number;
}

export interface PlanRule {
  readonly name: string;
  readonly enabled: boolean;
  readonly dryRun: boolean;
  readonly windows: readonly PlanWindow[];
  readonly notes: readonly string[];
  /** An optimise rule's half-hours; empty for other rules. */
  readonly explained: readonly PlanExplainedSlot[];
  /** The same half-hours' cost with no battery (the house's forecast load less solar at the same prices); null without explained half-hours. */
  readonly noBatteryCost: number | null;
}

/** Two rules acting on one control while their windows meet: who wins and why (control-overlaps.ts). */
export interface PlanContest {
  readonly start: number;
  readonly end: number;
  /** e.g. "preset timed-charge on the default inverter". */
  readonly control: string;
  readonly winner: string;
  readonly loser: string;
  /** e.g. "priority 10 over 0". */
  readonly because: string;
}

/** The battery the plan starts from, and whether that is the live reading. */
export interface PlanBattery {
  readonly socPercent: number;
  /** False: no reading yet, the SoC is assumed. */
  readonly live: boolean;
  /** The battery calibrates (read over the LAN): the rules hold until it ends. */
  readonly calibrating?: boolean;
  readonly capacityKwh: number;
  /** Where the capacity came from: "rules.yaml", "inverter SD2024G001" or "default". */
  readonly capacitySource: string;
}

/** What the plan is made from that the running rules know: the battery's SoC and the car. */
export interface PlanLive {
  /** Undefined: no reading yet. */
  readonly socPercent: number | undefined;
  /** Undefined: no rule plans a car, or the rules are not running. */
  readonly car?: CarState | undefined;
  /** The watched inverter's battery calibrates: the rules hold until it ends. */
  readonly calibrating?: boolean;
}

/** What an empty Plan page tells the user: where the rules go and where to start. */
export interface PlanHelp {
  /** Where the configuration expects the rules, or null when the daemon runs without a configuration file. */
  readonly rulesFile: string | null;
  readonly configFile: string | null;
  readonly example: string;
  readonly docs: string;
}

/** Two rules with windows over the same time: the one with the higher priority wins the device. */
export interface PlanConflict {
  readonly start: number;
  readonly end: number;
  readonly rules: readonly [string, string];
}

export interface PlanView {
  readonly from: number;
  readonly to: number;
  readonly currency: string;
  readonly timeZone: string;
  readonly slots: readonly PlanSlot[];
  readonly rules: readonly PlanRule[];
  readonly conflicts: readonly PlanConflict[];
  /** Expected battery SoC, % (at least two points). */
  readonly soc: readonly { readonly at: number; readonly soc: number }[];
  /** What the model assumes, shown on the page (e.g. how many days of history it learned from). */
  readonly notes: readonly string[];
  readonly hours: number;
  readonly battery: PlanBattery;
  /** Import cost less export income over the plan's hours, under every enabled rule. */
  readonly expectedCost: number;
  readonly contests: readonly PlanContest[];
  /** The car the optimise rules planned (as the engine knows it); null when no rule plans a car. */
  readonly car: CarState | null;
}

/** Windows of different enabled rules that overlap. */
export function overlaps(rules: readonly PlanRule[]): PlanConflict[] {
  const conflicts: PlanConflict[] = [];
  const active = rules.filter((rule) => rule.enabled);
  for (let i = 0; i < active.length; i++)
    for (let j = i + 1; j < active.length; j++) {
      const a = active[i] as PlanRule;
      const b = active[j] as PlanRule;
      for (const wa of a.windows)
        for (const wb of b.windows) {
          const start = Math.max(wa.start, wb.start);
          const end = Math.min(wa.end, wb.end);
          if (start < end) conflicts.push({ start, end, rules: [a.name, b.name] });
        }
    }
  return conflicts.sort((x, y) => x.start - y.start);
}

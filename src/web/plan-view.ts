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
  readonly actions: readonly string[];
}

export interface PlanRule {
  readonly name: string;
  readonly enabled: boolean;
  readonly dryRun: boolean;
  readonly windows: readonly PlanWindow[];
  readonly notes: readonly string[];
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

import { dayOf } from "../time/index.js";
import type { PolicyReplay } from "./replay.js";
import type { BacktestPeriodKind, BacktestRow } from "./result.js";

interface Sum {
  importKwh: number;
  exportKwh: number;
  cost: number;
}

/**
 * One tariff's replays summed per local day, month or the whole range, each against the same
 * period's no-battery cost (0 saved when there is no no-battery replay).
 */
export function periodRows(
  starts: readonly number[],
  timeZone: string,
  replays: readonly PolicyReplay[],
  tariff: string,
  by: BacktestPeriodKind,
  range: { readonly from: string; readonly to: string },
): BacktestRow[] {
  const periodOf = (start: number): string => {
    if (by === "range") return `${range.from}..${range.to}`;
    const day = dayOf(start, timeZone);
    return by === "day" ? day : day.slice(0, 7);
  };
  const periods = starts.map(periodOf);
  const sums = (replay: PolicyReplay): Map<string, Sum> => {
    const out = new Map<string, Sum>();
    periods.forEach((period, t) => {
      const sum = out.get(period) ?? { importKwh: 0, exportKwh: 0, cost: 0 };
      sum.importKwh += replay.flows.importKwh[t] ?? 0;
      sum.exportKwh += replay.flows.exportKwh[t] ?? 0;
      sum.cost += replay.flows.cost[t] ?? 0;
      out.set(period, sum);
    });
    return out;
  };
  const none = replays.find((replay) => replay.policy === "no-battery");
  const baseline = none ? sums(none) : undefined;
  const rows: BacktestRow[] = [];
  const byPolicy = replays.map((replay) => ({ policy: replay.policy, sums: sums(replay) }));
  for (const period of [...new Set(periods)]) {
    for (const { policy, sums: policySums } of byPolicy) {
      const sum = policySums.get(period) ?? { importKwh: 0, exportKwh: 0, cost: 0 };
      const reference = baseline?.get(period)?.cost ?? sum.cost;
      rows.push({
        period,
        tariff,
        policy,
        // The exact optimum's solver may leave -1e-12 where it means none.
        importKwh: Math.max(0, sum.importKwh),
        exportKwh: Math.max(0, sum.exportKwh),
        costGbp: sum.cost,
        savedVsNoBatteryGbp: reference - sum.cost,
      });
    }
  }
  return rows;
}

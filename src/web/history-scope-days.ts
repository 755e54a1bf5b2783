import type { History } from "../store/index.js";
import type { DailyEnergy, HistoryScope } from "./api-types.js";
import { dailyEnergy, type InverterDays, type PricesAt } from "./history-api.js";
import { nameOf } from "./history-scopes.js";

const add = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a === null || a === undefined || b === null || b === undefined ? null : a + b;

/**
 * A scope's energy and cost per day: each day's figures are the sum of its inverters' own rows for
 * that day (their flow.day and priced flow.half_hour records), a figure null when any inverter
 * counted has it null; `inverters` says how many inverters had a row that day.
 */
export function scopeDailyEnergy(
  history: History,
  scope: HistoryScope,
  query: { from: number; to: number },
  prices?: PricesAt,
): DailyEnergy {
  const each: InverterDays[] = scope.members.map((device) => dailyEnergy(history, { device, ...query }, prices));
  const first = each[0];
  if (each.length === 1 && first)
    return { ...first, device: scope.id, scope: nameOf(scope), inverters: first.time.map(() => 1) };
  const days = new Map<
    number,
    {
      flows: Map<string, number | null>;
      importKwh: number | null;
      exportKwh: number | null;
      cost: number | null;
      n: number;
    }
  >();
  for (const one of each)
    one.time.forEach((t, index) => {
      const day = days.get(t);
      const flows = Object.entries(one.flows).map(([name, values]) => [name, values[index] ?? null] as const);
      if (!day) {
        days.set(t, {
          flows: new Map(flows),
          importKwh: one.importKwh[index] ?? null,
          exportKwh: one.exportKwh[index] ?? null,
          cost: one.cost[index] ?? null,
          n: 1,
        });
        return;
      }
      for (const [name, value] of flows) day.flows.set(name, add(day.flows.get(name), value));
      day.importKwh = add(day.importKwh, one.importKwh[index]);
      day.exportKwh = add(day.exportKwh, one.exportKwh[index]);
      day.cost = add(day.cost, one.cost[index]);
      day.n += 1;
    });
  const ordered = [...days].sort(([a], [b]) => a - b);
  const names = Object.keys(first?.flows ?? {});
  return {
    device: scope.id,
    scope: nameOf(scope),
    time: ordered.map(([t]) => t),
    flows: Object.fromEntries(names.map((name) => [name, ordered.map(([, day]) => day.flows.get(name) ?? null)])),
    importKwh: ordered.map(([, day]) => day.importKwh),
    exportKwh: ordered.map(([, day]) => day.exportKwh),
    cost: ordered.map(([, day]) => (day.cost === null ? null : Math.round(day.cost * 100) / 100)),
    inverters: ordered.map(([, day]) => day.n),
    currency: each.find((one) => one.currency !== null)?.currency ?? null,
    timeZone: null,
    savings: null,
  };
}

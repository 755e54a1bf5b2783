import type { RulesFile } from "../file/schema.js";
import { createTariff } from "./index.js";
import type { Tariff } from "./tariff.js";

export interface RefreshedTariffs {
  readonly tariffs: { readonly import?: Tariff; readonly export?: Tariff };
  /** What each side's prices could not do, e.g. "import prices: tomorrow's are not published yet". */
  readonly notes: readonly string[];
}

/** The rules file's import and export tariffs, each refreshed once for a one-off plan. */
export async function refreshedTariffs(rules: RulesFile, timeZone: string, now: number): Promise<RefreshedTariffs> {
  const tariffs: { import?: Tariff; export?: Tariff } = {};
  const notes: string[] = [];
  for (const side of ["import", "export"] as const) {
    const config = rules.tariffs[side];
    if (!config) continue;
    const tariff = createTariff(config, timeZone);
    await tariff.refresh(now);
    const status = tariff.status(now);
    if (status.message) notes.push(`${side} prices: ${status.message}`);
    tariffs[side] = tariff;
  }
  return { tariffs, notes };
}

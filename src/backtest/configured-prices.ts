import type { RulesFile } from "../rules/file/schema.js";
import { mergedRates, type StoredPrices } from "../rules/savings/price-history.js";
import { OctopusTariff } from "../rules/tariffs/octopus-tariff.js";
import { refreshedTariffs } from "../rules/tariffs/refreshed.js";
import { SLOT_MS } from "../time/index.js";
import type { PricedTariff } from "./backtest.js";
import { pricesOn } from "./store-input.js";

/** The name the rules file's own tariffs go by in the table. */
export const CONFIGURED_TARIFF = "configured";

/**
 * The rules file's tariffs on the backtest's half-hours: the prices the daemon stored as they were
 * published, and what the tariffs themselves still hold (an Octopus tariff asked from the first
 * day, as its API keeps past prices) where the store has none.
 */
export async function configuredPrices(
  rules: RulesFile,
  timeZone: string,
  now: number,
  stored: StoredPrices,
  starts: readonly number[],
): Promise<{ readonly tariff: PricedTariff; readonly notes: string[] }> {
  const from = starts[0] ?? now;
  const to = (starts[starts.length - 1] ?? now) + SLOT_MS;
  const { tariffs, notes } = await refreshedTariffs(rules, timeZone, now);
  const out = [...notes];
  for (const [side, tariff] of Object.entries(tariffs))
    if (tariff instanceof OctopusTariff && !(await tariff.loadSince(from, now)))
      out.push(`${side} prices before yesterday could not be fetched: ${tariff.error ?? ""}`);
  const imports = pricesOn(starts, mergedRates(tariffs.import, stored, "import", from, to));
  const exports = rules.tariffs.export
    ? pricesOn(starts, mergedRates(tariffs.export, stored, "export", from, to))
    : { prices: starts.map(() => 0), filled: 0 };
  return {
    tariff: {
      name: CONFIGURED_TARIFF,
      source: `the rules file's ${rules.tariffs.import?.type ?? "no"} import and ${rules.tariffs.export?.type ?? "no"} export tariff, with the prices the daemon stored as published`,
      importPrice: imports.prices,
      exportPrice: exports.prices,
      filled: Math.max(imports.filled, exports.filled),
    },
    notes: out,
  };
}

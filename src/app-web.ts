import type { LoadedRules } from "./rules/load.js";
import type { Tariff } from "./rules/tariffs/index.js";
import type { Inventory } from "./telemetry/index.js";
import { overlaps, type PlanView } from "./web/plan-view.js";

const PLAN_HOURS = 36;
const DEFAULT_SOC = 50;
const DEFAULT_CAPACITY_KWH = 9.5;

/**
 * The Plan page's source for now: what `rules plan` computes (prices, windows, the battery plan's
 * SoC). The house model replaces this function; the page does not change.
 */
export function rulesPlan(
  loaded: LoadedRules | undefined,
  inventory: () => Inventory,
): (live: { readonly socPercent: number | undefined }) => Promise<PlanView | undefined> {
  return async ({ socPercent }) => {
    if (!loaded) return undefined;
    const [{ previewRules }, { createTariff, AgileTariff }, { rulesTimeZone }] = await Promise.all([
      import("./rules/preview.js"),
      import("./rules/tariffs/index.js"),
      import("./rules/schema.js"),
    ]);
    const { rules } = loaded;
    const now = Date.now();
    const timeZone = rulesTimeZone(rules, inventory().timezone);
    const notes: string[] = [];
    const tariffs: { import?: Tariff; export?: Tariff } = {};
    for (const side of ["import", "export"] as const) {
      const config = rules.tariffs[side];
      if (!config) continue;
      const tariff = createTariff(config, timeZone);
      if (tariff instanceof AgileTariff) {
        await tariff.load(now).catch((error: unknown) => notes.push(`${side} prices: ${(error as Error).message}`));
        const status = tariff.status(now);
        if (status.message) notes.push(`${side} prices: ${status.message}`);
      }
      tariffs[side] = tariff;
    }
    const inverter = inventory().inverters.find((one) => one.batteryCapacityKwh !== undefined);
    const capacityKwh = rules.battery.capacity_kwh ?? inverter?.batteryCapacityKwh ?? DEFAULT_CAPACITY_KWH;
    const soc = socPercent ?? DEFAULT_SOC;
    notes.unshift(
      `Battery ${Math.round(soc)}% now${socPercent === undefined ? " (not read yet: assumed)" : ""} of ${capacityKwh} kWh; the SoC line follows the rules' battery plans only: the house's own use and solar are not modelled yet`,
    );
    const preview = previewRules({
      rules,
      tariffs,
      timeZone,
      now,
      hours: PLAN_HOURS,
      state: { socPercent: soc, capacityKwh },
    });
    const socLine = [...preview.soc];
    const first = socLine[0];
    if (!first || first.at > preview.from) socLine.unshift({ at: preview.from, soc });
    const last = socLine[socLine.length - 1];
    if (last && last.at < preview.to) socLine.push({ at: preview.to, soc: last.soc });
    const planRules = preview.rules.map((rule) => ({
      name: rule.name,
      enabled: rule.enabled,
      dryRun: rule.dryRun,
      notes: rule.notes,
      windows: rule.windows.map((window) => ({
        start: window.start,
        end: window.end,
        trigger: window.trigger,
        actions: window.actions,
      })),
    }));
    return {
      from: preview.from,
      to: preview.to,
      currency: rules.tariffs.currency,
      timeZone,
      slots: preview.slots.map((slot) => ({
        start: slot.start,
        import: slot.import ?? null,
        export: slot.export ?? null,
        estimated: slot.estimated,
      })),
      rules: planRules,
      conflicts: overlaps(planRules),
      soc: socLine,
      notes,
    };
  };
}

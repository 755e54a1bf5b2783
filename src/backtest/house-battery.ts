import type { Battery } from "../optimiser/index.js";
import type { RulesFile } from "../rules/file/schema.js";
import { DISCHARGE_EFFICIENCY, RESERVE_PERCENT } from "../rules/planners/expected-soc.js";

type OptimiseSpec = NonNullable<RulesFile["rules"][number]["when"][number]["optimise"]>;

/** The first enabled optimise trigger of the rules file, with its rule's name. */
export function optimiseRuleOf(rules: RulesFile): { readonly name: string; readonly spec: OptimiseSpec } | undefined {
  for (const rule of rules.rules) {
    if (!rule.enabled) continue;
    const spec = rule.when.find((trigger) => trigger.optimise !== undefined)?.optimise;
    if (spec) return { name: rule.name, spec };
  }
  return undefined;
}

/**
 * The battery every modelled policy runs: the rules file's battery (charge power, grid-to-battery
 * efficiency) and its optimise rule's discharge power, discharge efficiency, reserve and export
 * limit, else the planner's defaults; the capacity given.
 */
export function houseBattery(rules: RulesFile, capacityKwh: number): Battery {
  const optimise = optimiseRuleOf(rules)?.spec;
  const exportLimitKw = optimise?.export_limit_kw;
  return {
    capacityKwh,
    chargeKw: rules.battery.charge_kw,
    dischargeKw: optimise?.discharge_kw ?? rules.battery.charge_kw,
    chargeEfficiency: rules.battery.efficiency,
    dischargeEfficiency: optimise?.discharge_efficiency ?? DISCHARGE_EFFICIENCY,
    reservePercent: optimise?.reserve_soc ?? RESERVE_PERCENT,
    ...(exportLimitKw === undefined ? {} : { exportLimitKw }),
  };
}

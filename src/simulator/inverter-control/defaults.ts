import { parseRules } from "../../cloud/index.js";
import type { SettingDefinition } from "./listing.js";
import { AC_CHARGE_SLOTS, DC_DISCHARGE_SLOTS, SETTING, SLOT_OFF } from "./setting-ids.js";
import type { SettingValue } from "./stored-value.js";

/** A Gen3 hybrid as it leaves the factory: Eco mode on, no timed charge or discharge, full power. */
const FACTORY: Readonly<Record<number, SettingValue>> = {
  [SETTING.acChargeUpperLimitEnable]: false,
  [SETTING.ecoMode]: true,
  [SETTING.maxOutputPercent]: 100,
  [SETTING.dcDischargeEnable]: false,
  [SETTING.acChargeEnable]: false,
  [SETTING.batteryReserve]: 4,
  [SETTING.batteryChargePower]: 3600,
  [SETTING.batteryDischargePower]: 3600,
  [SETTING.batteryCutoff]: 4,
  [SETTING.acChargeUpperLimit]: 100,
  [SETTING.pauseBattery]: 0,
  [SETTING.exportPowerPriority]: 0,
  [SETTING.chargePowerPercent]: 100,
  [SETTING.dischargePowerPercent]: 100,
  [SETTING.enableEps]: false,
  [SETTING.realTimeControl]: false,
  ...Object.fromEntries(AC_CHARGE_SLOTS.map((slot) => [slot.limit, 100])),
  ...Object.fromEntries(DC_DISCHARGE_SLOTS.map((slot) => [slot.limit, 4])),
};

/** For a setting the table above does not know: the rules' most neutral value. */
function fromRules(rules: readonly string[]): SettingValue | undefined {
  for (const rule of parseRules(rules)) {
    if (rule.kind === "type" && rule.type === "boolean") return false;
    if (rule.kind === "date_format" && rule.formats.includes("H:i")) return SLOT_OFF;
    if (rule.kind === "between") return rule.min;
    if (rule.kind === "min") return rule.limit;
    if (rule.kind === "in") {
      const first = rule.values[0] ?? "";
      return /^-?\d+$/.test(first) ? Number(first) : first;
    }
  }
  return undefined;
}

/** The factory value of a setting; undefined for a write-only one, which holds none. */
export function factoryDefault(setting: SettingDefinition): SettingValue | undefined {
  if (setting.writeonly) return undefined;
  return FACTORY[setting.id] ?? fromRules(setting.rules);
}

import type { PresetIdentifier } from "../../../cloud/index.js";
import { AC_CHARGE_SLOTS, DC_DISCHARGE_SLOTS, SETTING, SLOT_OFF, type SlotIds } from "../setting-ids.js";
import { slotEntries, slotKeyErrors } from "./slot-input.js";
import type { PresetContext, PresetDefinition, PresetParameter, PresetPlan, SettingWrite } from "./types.js";
import { flag, isOn } from "./values.js";

interface TimedOptions {
  readonly identifier: Extract<PresetIdentifier, "timed-charge" | "timed-discharge" | "timed-export">;
  readonly name: string;
  readonly description: string;
  readonly enableId: number;
  readonly slots: readonly SlotIds[];
  readonly limitDescription: string;
  /** Whether the preset is on, read from the settings. */
  readonly enabled: (context: PresetContext) => boolean;
  /** Writes that come with switching the preset on (Eco mode for the discharge presets). */
  readonly onEnable: (context: PresetContext) => readonly SettingWrite[];
  readonly withMaxPower: boolean;
}

function timedParameters(options: TimedOptions, context: PresetContext): Record<string, PresetParameter> {
  const time = context.valueRules(options.slots[0]?.start ?? 0);
  const parameters: Record<string, PresetParameter> = {
    enabled: {
      description: "Whether the preset is on. false disables all of its slots.",
      validation: ["optional", "boolean"],
    },
    slots: {
      description: `Up to ${options.slots.length} slots: a list filled from slot 1, or an object keyed by the slot number (1 to ${options.slots.length}) holding only the slots to change.`,
      validation: ["optional", "array", `max:${options.slots.length}`],
    },
    "slots.*": { description: "One slot; fields left out keep their value.", validation: ["object"] },
    "slots.*.start_time": { description: "Slot start, local time.", validation: ["optional", ...time] },
    "slots.*.end_time": { description: "Slot end, local time.", validation: ["optional", ...time] },
    "slots.*.percent_limit": {
      description: options.limitDescription,
      validation: ["optional", "integer", ...context.valueRules(options.slots[0]?.limit ?? 0)],
    },
  };
  if (options.withMaxPower) {
    parameters.max_power_watts = {
      description: "Battery discharge power limit in watts.",
      validation: ["optional", "integer", ...context.valueRules(SETTING.batteryDischargePower)],
    };
  }
  return parameters;
}

function timedPlan(options: TimedOptions, context: PresetContext, body: Readonly<Record<string, unknown>>): PresetPlan {
  const enabled = flag(body.enabled);
  const writes: SettingWrite[] = [];
  if (options.withMaxPower && body.max_power_watts !== undefined && body.max_power_watts !== null) {
    writes.push({ id: SETTING.batteryDischargePower, value: Number(body.max_power_watts) });
  }
  if (enabled === false) {
    // The switch goes off first so that no half-cleared slot runs in between.
    writes.push({ id: options.enableId, value: false });
    for (const slot of options.slots) {
      writes.push({ id: slot.start, value: SLOT_OFF }, { id: slot.end, value: SLOT_OFF });
    }
    return { writes };
  }
  for (const [number, slot] of slotEntries(body.slots)) {
    const ids = options.slots[number - 1];
    if (!ids) continue;
    if (typeof slot.start_time === "string") writes.push({ id: ids.start, value: slot.start_time });
    if (typeof slot.end_time === "string") writes.push({ id: ids.end, value: slot.end_time });
    if (slot.percent_limit !== undefined && slot.percent_limit !== null) {
      writes.push({ id: ids.limit, value: Number(slot.percent_limit) });
    }
  }
  if (enabled !== true) return { writes };
  writes.push(...options.onEnable(context), { id: options.enableId, value: true });
  return options.identifier === "timed-charge" ? { writes } : { writes, dischargeOwner: options.identifier };
}

function timedPreset(options: TimedOptions): PresetDefinition {
  return {
    identifier: options.identifier,
    name: options.name,
    description: options.description,
    parameters: (context) => timedParameters(options, context),
    extraErrors: (body) => slotKeyErrors(body.slots, options.slots.length),
    values: (context) => ({
      enabled: options.enabled(context),
      slots: options.slots.map((ids) => ({
        start_time: context.setting(ids.start),
        end_time: context.setting(ids.end),
        percent_limit: context.setting(ids.limit),
      })),
      ...(options.withMaxPower ? { max_power_watts: context.setting(SETTING.batteryDischargePower) } : {}),
    }),
    plan: (context, body) => timedPlan(options, context, body),
  };
}

/**
 * Without this flag Eco mode decides how a DC discharge runs (on: cover the home's demand, off:
 * full power), so the two discharge presets are told apart by setting 24. With it every DC
 * discharge runs at full power and Eco mode says nothing, so the preset last switched on counts.
 */
export const FULL_POWER_FLAG = "full-power-discharge-in-eco-mode";

const dischargeOn = (context: PresetContext): boolean => isOn(context.setting(SETTING.dcDischargeEnable));
const ecoOn = (context: PresetContext): boolean => isOn(context.setting(SETTING.ecoMode));

export const timedCharge = timedPreset({
  identifier: "timed-charge",
  name: "Timed Charge",
  description: "Charge the battery from the grid during the given time slots, up to each slot's limit.",
  enableId: SETTING.acChargeEnable,
  slots: AC_CHARGE_SLOTS,
  limitDescription: "Stop charging at this battery level (%).",
  enabled: (context) => isOn(context.setting(SETTING.acChargeEnable)),
  onEnable: () => [],
  withMaxPower: false,
});

export const timedDischarge = timedPreset({
  identifier: "timed-discharge",
  name: "Timed Discharge",
  description: "The battery covers the home's demand only at the given times.",
  enableId: SETTING.dcDischargeEnable,
  slots: DC_DISCHARGE_SLOTS,
  limitDescription: "Stop discharging at this battery level (%).",
  enabled: (context) =>
    dischargeOn(context) &&
    (context.hasFlag(FULL_POWER_FLAG) ? context.dischargeOwner !== "timed-export" : ecoOn(context)),
  onEnable: () => [{ id: SETTING.ecoMode, value: true }],
  withMaxPower: true,
});

export const timedExport = timedPreset({
  identifier: "timed-export",
  name: "Timed Export",
  description: "The battery discharges at maximum power at the given times, exporting what the home does not use.",
  enableId: SETTING.dcDischargeEnable,
  slots: DC_DISCHARGE_SLOTS,
  limitDescription: "Stop discharging at this battery level (%).",
  enabled: (context) =>
    dischargeOn(context) &&
    (context.hasFlag(FULL_POWER_FLAG) ? context.dischargeOwner === "timed-export" : !ecoOn(context)),
  onEnable: (context) => (context.hasFlag(FULL_POWER_FLAG) ? [] : [{ id: SETTING.ecoMode, value: false }]),
  withMaxPower: true,
});

import { SLOT_OFF, type SlotIds } from "../setting-ids.js";
import {
  EMS_CHARGE_SLOTS,
  EMS_DISCHARGE_SLOTS,
  EMS_EXPORT_FIELDS,
  EMS_SLOT_COUNT,
  exportSlotFields,
  exportState,
  slotRuns,
} from "./ems-slots.js";
import { slotEntries, slotKeyErrors } from "./slot-input.js";
import type { PresetContext, PresetDefinition, PresetParameter, SettingWrite } from "./types.js";
import { flag } from "./values.js";

/*
 * The timed presets on an EMS plant: its own three slots of each kind, with no switch of their
 * own (a slot runs when its start and end differ), so `enabled: false` clears every slot and
 * `enabled` reads whether any runs. Charge and discharge slots are settings; export slots are
 * the EMS's timed-export state (ems-slots.ts).
 */

/** What differs of a timed preset on an EMS plant. */
type EmsVersion = Pick<PresetDefinition, "parameters" | "extraErrors" | "values" | "plan">;

function parameters(
  time: readonly string[],
  limit: readonly string[],
  limitDescription: string,
): Record<string, PresetParameter> {
  return {
    enabled: {
      description: "Whether any slot runs. false clears all of its slots.",
      validation: ["optional", "boolean"],
    },
    slots: {
      description: `Up to ${EMS_SLOT_COUNT} slots: a list filled from slot 1, or an object keyed by the slot number (1 to ${EMS_SLOT_COUNT}) holding only the slots to change.`,
      validation: ["optional", "array", `max:${EMS_SLOT_COUNT}`],
    },
    "slots.*": { description: "One slot; fields left out keep their value.", validation: ["object"] },
    "slots.*.start_time": { description: "Slot start, local time.", validation: ["optional", ...time] },
    "slots.*.end_time": { description: "Slot end, local time.", validation: ["optional", ...time] },
    "slots.*.percent_limit": { description: limitDescription, validation: ["optional", "integer", ...limit] },
  };
}

/** Charge or discharge: the EMS's slot settings. */
function settingSlots(slots: readonly SlotIds[], limitDescription: string): EmsVersion {
  return {
    parameters: (context: PresetContext) =>
      parameters(context.valueRules(slots[0]?.start ?? 0), context.valueRules(slots[0]?.limit ?? 0), limitDescription),
    extraErrors: (body: Readonly<Record<string, unknown>>) => slotKeyErrors(body.slots, EMS_SLOT_COUNT),
    values: (context: PresetContext) => ({
      enabled: slots.some((ids) => slotRuns(context.setting(ids.start), context.setting(ids.end))),
      slots: slots.map((ids) => ({
        start_time: context.setting(ids.start),
        end_time: context.setting(ids.end),
        percent_limit: context.setting(ids.limit),
      })),
    }),
    plan: (_context: PresetContext, body: Readonly<Record<string, unknown>>) => {
      const writes: SettingWrite[] = [];
      if (flag(body.enabled) === false) {
        for (const ids of slots) writes.push({ id: ids.start, value: SLOT_OFF }, { id: ids.end, value: SLOT_OFF });
        return { writes };
      }
      for (const [number, slot] of slotEntries(body.slots)) {
        const ids = slots[number - 1];
        if (!ids) continue;
        if (typeof slot.start_time === "string") writes.push({ id: ids.start, value: slot.start_time });
        if (typeof slot.end_time === "string") writes.push({ id: ids.end, value: slot.end_time });
        if (slot.percent_limit !== undefined && slot.percent_limit !== null)
          writes.push({ id: ids.limit, value: Number(slot.percent_limit) });
      }
      return { writes };
    },
  };
}

export const emsTimedCharge = settingSlots(EMS_CHARGE_SLOTS, "Stop charging at this battery level (%).");
export const emsTimedDischarge = settingSlots(EMS_DISCHARGE_SLOTS, "Stop discharging at this battery level (%).");

const numbers = Array.from({ length: EMS_SLOT_COUNT }, (_, index) => index + 1);

/** Export: the EMS's export slots, its timed-export state. */
export const emsTimedExport: EmsVersion = {
  parameters: () =>
    parameters(
      (EMS_EXPORT_FIELDS[exportSlotFields(1).start]?.rules ?? []).filter((rule) => rule !== "optional"),
      (EMS_EXPORT_FIELDS[exportSlotFields(1).limit]?.rules ?? []).filter(
        (rule) => rule !== "optional" && rule !== "integer",
      ),
      "Stop exporting at this battery level (%).",
    ),
  extraErrors: (body: Readonly<Record<string, unknown>>) => slotKeyErrors(body.slots, EMS_SLOT_COUNT),
  values: (context: PresetContext) => {
    const state = exportState(context.internal("timed-export"));
    const slots = numbers.map((number) => {
      const fields = exportSlotFields(number);
      return { start_time: state[fields.start], end_time: state[fields.end], percent_limit: state[fields.limit] };
    });
    return { enabled: slots.some((slot) => slotRuns(slot.start_time, slot.end_time)), slots };
  },
  plan: (context: PresetContext, body: Readonly<Record<string, unknown>>) => {
    const state = exportState(context.internal("timed-export"));
    if (flag(body.enabled) === false) {
      for (const number of numbers) {
        const fields = exportSlotFields(number);
        state[fields.start] = SLOT_OFF;
        state[fields.end] = SLOT_OFF;
      }
    } else {
      for (const [number, slot] of slotEntries(body.slots)) {
        if (number < 1 || number > EMS_SLOT_COUNT) continue;
        const fields = exportSlotFields(number);
        if (typeof slot.start_time === "string") state[fields.start] = slot.start_time;
        if (typeof slot.end_time === "string") state[fields.end] = slot.end_time;
        if (slot.percent_limit !== undefined && slot.percent_limit !== null)
          state[fields.limit] = Number(slot.percent_limit);
      }
    }
    return { writes: [], internal: { identifier: "timed-export" as const, values: state } };
  },
};

/** The preset as it runs on an inverter, or on an EMS plant (its own slots). */
export function plantAware(normal: PresetDefinition, ems: EmsVersion): PresetDefinition {
  const pick = (context: PresetContext): EmsVersion => (context.emsPlant ? ems : normal);
  return {
    ...normal,
    parameters: (context) => pick(context).parameters(context),
    extraErrors: (body, context) => pick(context).extraErrors?.(body, context) ?? {},
    values: (context) => pick(context).values(context),
    plan: (context, body) => pick(context).plan(context, body),
  };
}

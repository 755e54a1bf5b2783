import { AC_CHARGE_SLOTS, DC_DISCHARGE_SLOTS, SLOT_OFF, type SlotIds } from "../setting-ids.js";

/*
 * An EMS plant's own slots (givenergy-modbus's EMS model: HR 2044-2071): three discharge slots,
 * three charge slots and three export slots, each a start, an end and a battery level. The
 * charge and discharge slots are the listing's first three slot settings; the export slots have
 * no setting, so they are the EMS's timed-export state. A slot runs when its start and end
 * differ; the EMS has no switch per kind of slot.
 */

export const EMS_SLOT_COUNT = 3;

export const EMS_CHARGE_SLOTS: readonly SlotIds[] = AC_CHARGE_SLOTS.slice(0, EMS_SLOT_COUNT);
export const EMS_DISCHARGE_SLOTS: readonly SlotIds[] = DC_DISCHARGE_SLOTS.slice(0, EMS_SLOT_COUNT);

/** An export slot's field names in the EMS's timed-export state. */
export const exportSlotFields = (slot: number) => ({
  start: `slot_${slot}_start_time`,
  end: `slot_${slot}_end_time`,
  limit: `slot_${slot}_percent_limit`,
});

interface ExportField {
  readonly rules: readonly string[];
  readonly factory: string | number;
}

const TIME_RULES = ["optional", "date_format:H:i"] as const;
/** The battery level an export slot stops at, as the discharge slots' (4-100 %). */
const LIMIT_RULES = ["optional", "integer", "between:4,100"] as const;

export const EMS_EXPORT_FIELDS: Readonly<Record<string, ExportField>> = Object.fromEntries(
  Array.from({ length: EMS_SLOT_COUNT }, (_, index) => exportSlotFields(index + 1)).flatMap((fields) => [
    [fields.start, { rules: TIME_RULES, factory: SLOT_OFF }],
    [fields.end, { rules: TIME_RULES, factory: SLOT_OFF }],
    [fields.limit, { rules: LIMIT_RULES, factory: 4 }],
  ]),
);

/** The EMS's export slots as stored: its timed-export state over the factory's. */
export function exportState(
  stored: Readonly<Record<string, boolean | number | string>>,
): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [field, spec] of Object.entries(EMS_EXPORT_FIELDS)) {
    const value = stored[field];
    out[field] = typeof value === "string" || typeof value === "number" ? value : spec.factory;
  }
  return out;
}

/** A slot runs when its start and end differ. */
export const slotRuns = (start: unknown, end: unknown): boolean => start !== undefined && start !== end;

import { shown } from "./outcome.js";
import { containsValues, slotsByNumber } from "./same-value.js";

type Fields = Readonly<Record<string, unknown>>;

/** One field of a preset change that the device, read back, does not hold as asked. */
export interface FieldDifference {
  /** e.g. `enabled`, `slot 1 end_time`. */
  readonly field: string;
  readonly wanted: unknown;
  readonly read: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The fields sent that the values read back do not hold, slots compared slot by slot and field by
 * field, and how many fields were compared.
 */
export function presetDifferences(
  sent: Fields,
  values: Fields,
): { readonly differences: FieldDifference[]; readonly compared: number } {
  const differences: FieldDifference[] = [];
  let compared = 0;
  const compare = (field: string, wanted: unknown, read: unknown) => {
    compared++;
    if (!containsValues(read, wanted)) differences.push({ field, wanted, read });
  };
  for (const [key, wanted] of Object.entries(sent)) {
    if (key !== "slots") {
      compare(key, wanted, values[key]);
      continue;
    }
    const wantedSlots = slotsByNumber(wanted);
    const readSlots = slotsByNumber(values.slots);
    if (!isRecord(wantedSlots)) continue;
    for (const [number, slot] of Object.entries(wantedSlots)) {
      const read = isRecord(readSlots) ? readSlots[number] : undefined;
      if (!isRecord(slot)) {
        compare(`slot ${number}`, slot, read);
        continue;
      }
      for (const [field, value] of Object.entries(slot))
        compare(`slot ${number} ${field}`, value, isRecord(read) ? read[field] : undefined);
    }
  }
  return { differences, compared };
}

/**
 * What reading back showed, field by field: `enabled is false (wanted true), slot 1 end_time is
 * 00:00 (wanted 04:30); the other 2 fields sent are as asked`.
 */
export function differencesText(sent: Fields, values: Fields): string {
  const { differences, compared } = presetDifferences(sent, values);
  if (differences.length === 0) return "other values";
  const listed = differences.map((d) => `${d.field} is ${shown(d.read)} (wanted ${shown(d.wanted)})`).join(", ");
  const rest = compared - differences.length;
  return rest === 0 ? listed : `${listed}; the other ${rest} field(s) sent are as asked`;
}

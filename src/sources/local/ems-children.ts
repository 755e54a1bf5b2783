import type { Logger } from "../../log/log.js";
import type { LocalDongle } from "./dongle.js";

/** The window a child of an EMS must leave in its own slot 1, so that the EMS's plan decides. */
const WHOLE_DAY = { start: 0, end: 2359 } as const;

/** A child inverter's own slot 1: its cloud setting IDs and holding registers, start then end. */
const CHILD_SLOTS = [
  { name: "AC charge slot 1", settings: [64, 65], registers: [94, 95] },
  { name: "DC discharge slot 1", settings: [53, 54], registers: [56, 57] },
] as const;

const hhmm = (word: number): string =>
  `${String(Math.floor(word / 100)).padStart(2, "0")}:${String(word % 100).padStart(2, "0")}`;

/**
 * What to change on an EMS's inverter whose own slot 1 would override the EMS (anything but
 * 00:00-23:59): one warning per such slot, given the words its slot registers hold.
 */
export function childSlotWarnings(child: string, ems: string, words: ReadonlyMap<number, number>): string[] {
  return CHILD_SLOTS.flatMap((slot) => {
    const [startRegister, endRegister] = slot.registers;
    const start = words.get(startRegister);
    const end = words.get(endRegister);
    if (start === undefined || end === undefined) return [];
    if (start === WHOLE_DAY.start && end === WHOLE_DAY.end) return [];
    return [
      `inverter ${child} under EMS ${ems}: its own ${slot.name} is ${hhmm(start)}-${hhmm(end)}, which overrides the EMS's plan; set it to 00:00-23:59 (settings ${slot.settings.join("/")}, holding registers ${slot.registers.join("/")}) on the inverter, and change the EMS's slots instead`,
    ];
  });
}

/** Reads each EMS child's own slot 1 over its dongle and warns, with what to change, where one would override the EMS. */
export async function warnOfChildSlots(
  children: readonly { readonly serial: string; readonly ems: string; readonly dongle: LocalDongle }[],
  logger: Logger | undefined,
  signal?: AbortSignal,
): Promise<string[]> {
  const warnings: string[] = [];
  for (const { serial, ems, dongle } of children) {
    if (dongle.options.passive) continue;
    try {
      const words = new Map<number, number>();
      for (const [first, count] of [
        [56, 2],
        [94, 2],
      ] as const) {
        const values = await dongle.readHolding(first, count, signal);
        for (const [index, value] of values.entries()) words.set(first + index, value);
      }
      warnings.push(...childSlotWarnings(serial, ems, words));
    } catch (error) {
      logger?.debug({ serial, err: error }, "could not read an EMS child's own slot 1");
    }
  }
  for (const warning of warnings) logger?.warn(warning);
  return warnings;
}

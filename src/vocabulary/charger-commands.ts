import { z } from "zod";

/*
 * An EV charger's commands as the daemon names them: the ids that MQTT topics, entities' unique
 * ids, rules files and audit records carry, and each command's arguments with the bounds the
 * daemon checks before anything is sent, whichever path then carries it (the cloud, OCPP).
 *
 * Argument objects are strict: an unknown field is refused rather than dropped, because a
 * misspelt optional field (say `limt` for set-session-energy-limit) would otherwise send no limit
 * instead of the one meant.
 */

/** A time of day as two-digit hours 00 to 23 and minutes, e.g. `05:30`. */
const hourMinute = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a time as HH:mm (H:i), e.g. 05:30");

/** A date (`YYYY-MM-DD`) or a datetime, ISO 8601 or local `YYYY-MM-DD hh:mm:ss`. */
const dateOrTime = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/,
    "expected an ISO 8601 or local datetime",
  );

/** The most current a charge may draw, A. */
const amps = z.number().min(6).max(32);

/** An ID tag: 1 to 20 characters. */
const tagId = z.string().min(1).max(20);

/** Day of the week: 0 Monday to 6 Sunday. */
const weekday = z.number().int().min(0).max(6);

const noArguments = z.strictObject({});

const schedulePeriod = z.strictObject({
  start_time: hourMinute,
  end_time: hourMinute,
  limit: amps,
  days: z.array(weekday),
});

const idTag = z.strictObject({
  id: tagId,
  alias: z.string().optional(),
  expiry_date: dateOrTime.optional(),
});

const INSTALLATION_MODES = ["standalone", "ct_meter", "inverter_control", "hybrid_inverter_control"] as const;
const CONFIGURATION_MODES = ["A", "B", "C", "D", "E"] as const;
const INVERTER_CONTROL_MODES = ["Eco", "SuperEco", "Boost"] as const;

/** Every command's arguments, in the order the charger's controls are listed. */
export const CHARGER_COMMANDS = {
  "start-charge": noArguments,
  "stop-charge": noArguments,
  "adjust-charge-power-limit": z.strictObject({ limit: amps }),
  "set-plug-and-go": z.strictObject({ enabled: z.boolean() }),
  /** kWh; left out, no limit. */
  "set-session-energy-limit": z.strictObject({ limit: z.number().min(0.1).max(250).optional() }),
  /** A new schedule is not active until set-active-schedule names it. */
  "set-schedule": z.strictObject({
    schedule_id: z.string().optional(),
    name: z.string().max(30),
    periods: z.array(schedulePeriod),
  }),
  "unlock-connector": noArguments,
  /** Left out, every schedule goes. */
  "delete-charging-profile": z.strictObject({ schedule_id: z.string().optional() }),
  "change-mode": z.strictObject({ mode: z.string().min(1) }),
  "restart-charger": z.strictObject({ hard_reset: z.boolean().optional() }),
  /** Seconds. */
  "change-randomised-delay-duration": z.strictObject({ duration: z.number().min(600).max(1800) }),
  "add-id-tags": z.strictObject({ id_tags: z.array(idTag).min(1) }),
  "delete-id-tags": z.strictObject({ id_tags: z.array(tagId) }),
  "rename-id-tag": z.strictObject({ tag_id: tagId, alias: z.string() }),
  /** Superseded by configuration-mode. */
  "installation-mode": z.strictObject({ installation_mode: z.enum(INSTALLATION_MODES) }),
  "setup-version": z.strictObject({ setup_version: z.number().int() }),
  /** Left out, the active schedule is deactivated. */
  "set-active-schedule": z.strictObject({ schedule_id: z.string().optional() }),
  /** A. */
  "set-max-import-capacity": z.strictObject({ value: z.number().int().min(40).max(100).optional() }),
  "enable-front-panel-led": z.strictObject({ value: z.boolean() }),
  "configure-inverter-control": z.strictObject({
    /** Share of excess solar for the battery, e.g. "0.5". */
    inverter_battery_export_split: z.string().optional(),
    /** W. */
    max_battery_discharge_power_to_evc: z.number().int().min(0).optional(),
    mode: z.enum(INVERTER_CONTROL_MODES).optional(),
  }),
  "perform-factory-reset": noArguments,
  "configuration-mode": z.strictObject({ configuration_mode: z.enum(CONFIGURATION_MODES) }),
  /** Control over Modbus on the LAN. */
  "enable-local-control": z.strictObject({ value: z.boolean() }),
  "read-cp-voltage-and-duty-cycle": noArguments,
  "adjust-cp-voltage-range": z.strictObject({ min: z.number().min(7.6).max(8), max: z.number().min(10).max(10.5) }),
  /** Seconds; 0 never leaves the suspended state. */
  "adjust-suspended-state-wait-timeout": z.strictObject({ value: z.number().int().min(0).max(43200).optional() }),
} as const satisfies Record<string, z.ZodType>;

export type ChargerCommandId = keyof typeof CHARGER_COMMANDS;
/** A command's arguments as checked. */
export type ChargerCommandArgs<C extends ChargerCommandId> = z.output<(typeof CHARGER_COMMANDS)[C]>;

/** Every command id, in the order the charger's controls are listed. */
export const CHARGER_COMMAND_IDS = Object.freeze(Object.keys(CHARGER_COMMANDS)) as readonly ChargerCommandId[];

export function isChargerCommandId(value: string): value is ChargerCommandId {
  return Object.hasOwn(CHARGER_COMMANDS, value);
}

/** A range a charger holds: the value and its bounds, in `unit` (A or W for a current limit, kWh for energy). */
export interface ChargerRange {
  readonly value?: number | null;
  readonly unit?: string | null;
  readonly min?: number | null;
  readonly max?: number | null;
}

/** The charger's operating mode, and the modes it offers now. */
export interface ChargerModes {
  readonly active?: string | null;
  readonly available: readonly string[];
}

/** Plug and go: whether it is on (null when the charger does not say), whether it may be changed now, and why not. */
export interface ChargerPlugAndGo {
  readonly value: boolean | null;
  readonly disabled: boolean;
  readonly message: string | null;
}

/** A value the charger holds as it gives it (a switch's state, a capacity). */
export interface ChargerHeld {
  readonly value: unknown;
}

/**
 * What reading a command back gives: the value its control holds now. The randomised delay's
 * duration is not told back (null).
 */
export interface ChargerReadings {
  readonly "change-mode": ChargerModes;
  readonly "adjust-charge-power-limit": ChargerRange;
  readonly "set-plug-and-go": ChargerPlugAndGo;
  readonly "set-session-energy-limit": ChargerRange;
  readonly "enable-front-panel-led": ChargerHeld;
  readonly "set-max-import-capacity": ChargerHeld;
  readonly "change-randomised-delay-duration": null;
}
export type ReadableChargerCommand = keyof ChargerReadings;

/** The commands whose reading is the state of a control, in the order they are read. */
export const READABLE_CHARGER_COMMANDS: readonly ReadableChargerCommand[] = [
  "change-mode",
  "adjust-charge-power-limit",
  "set-plug-and-go",
  "set-session-energy-limit",
  "enable-front-panel-led",
  "set-max-import-capacity",
  "change-randomised-delay-duration",
];

export function isReadableChargerCommand(command: ChargerCommandId): command is ReadableChargerCommand {
  return (READABLE_CHARGER_COMMANDS as readonly string[]).includes(command);
}

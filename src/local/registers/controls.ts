import {
  C_RATE_WORDS,
  CHARGE_LIMIT_REGISTER,
  DISCHARGE_LIMIT_REGISTER,
  POWER_RATE_WORDS,
  THREE_PHASE_CHARGE_RATE_REGISTER,
  THREE_PHASE_DISCHARGE_RATE_REGISTER,
  wattsOfWord,
  wattsPerPercent,
  wattsPerStep,
  wordOfWatts,
} from "./battery-rate.js";
import { CLOCK_REGISTERS, isClockRegister } from "./clock.js";
import { CLOUD_SETTINGS } from "./cloud-settings.js";
import {
  GATEWAY_CHARGE_LIMIT_REGISTER,
  GATEWAY_DISCHARGE_LIMIT_REGISTER,
  GATEWAY_RATE_WORDS,
  gatewayWattsPerStep,
} from "./gateway-rate.js";
import type { Detected, Model } from "./model.js";
import {
  between,
  DISCHARGE_FLOOR,
  EMS_EXPORT_WATTS,
  PERCENT,
  POWER_PERCENT,
  type Range,
  THREE_PHASE_EXPORT_WATTS,
  THREE_PHASE_SOC,
} from "./ranges.js";

/*
 * The map from the cloud's setting IDs (the daemon's vocabulary for controls) to the holding
 * registers of each model, from the public register maps (givenergy-modbus's
 * model/inverter.py, model/slot_map.py and client/commands.py; GivTCP), read for facts. A
 * setting with no register on a model is not offered there; a register no setting maps to is
 * not in the model's allowlist, and is never written.
 */

/**
 * How a register holds the cloud's value: `bool` 0/1; `number` the value as is (percent,
 * enumerations); `hhmm` a time of day as the number HHMM ("05:30" is 530), as the slots hold it;
 * `c-rate` watts as the battery's C-rate in hundredths (battery-rate.ts), `step` W a word;
 * `power-rate` watts as a percentage of the battery's top rate (the three-phase's, or a gateway's
 * All-in-Ones' rating: gateway-rate.ts), `step` W a word, within `words`.
 */
export type Codec = "bool" | "number" | "hhmm" | "c-rate" | "power-rate";

export interface ControlRegister {
  /** The cloud's setting ID. */
  readonly settingId: number;
  /** The holding register at the controller's address. */
  readonly register: number;
  readonly codec: Codec;
  /** The values the register holds on this model, for a number with a range (not an enumeration). */
  readonly range?: Range;
  /** The setting's rules on this model: the cloud's listing's, with its range the register's. */
  readonly rules: readonly string[];
  /** A `c-rate` or `power-rate` register's watts per word, from the battery's capacity or modules. */
  readonly step?: number;
  /** The words a `c-rate` or `power-rate` register takes. */
  readonly words?: Range;
}

/**
 * A field of one of the cloud's presets that has no setting in its listing (plant EMS control,
 * grid settings): the preset's own state, held in a register on the models that have one.
 */
export interface PresetFieldRegister {
  /** `<preset identifier>.<field>`, e.g. `grid-settings.export_limit_watts`. */
  readonly key: PresetFieldKey;
  readonly register: number;
  readonly codec: Codec;
  /** The values the register holds on this model, for a number. */
  readonly range?: Range;
  /** The field's rules as the cloud lists them (the simulator's presets/internal.ts), with its range the register's. */
  readonly rules: readonly string[];
}

/** An EMS's export slot 1-3 (its timed-export state, since no cloud setting holds it). */
export type ExportSlotKey = `timed-export.slot_${1 | 2 | 3}_${"start_time" | "end_time" | "percent_limit"}`;

export type PresetFieldKey =
  | "plant-ems-enable-control.enabled"
  | "grid-settings.export_limit_enabled"
  | "grid-settings.export_limit_watts"
  | ExportSlotKey;

/** The keys of an EMS's export slot. */
export const exportSlotKeys = (
  slot: 1 | 2 | 3,
): { start: ExportSlotKey; end: ExportSlotKey; limit: ExportSlotKey } => ({
  start: `timed-export.slot_${slot}_start_time`,
  end: `timed-export.slot_${slot}_end_time`,
  limit: `timed-export.slot_${slot}_percent_limit`,
});

const EXPORT_SLOTS = [1, 2, 3] as const;

/** A register the map writes: a setting's, or a preset field's. */
export type MappedRegister = ControlRegister | PresetFieldRegister;

export interface ControlMap {
  readonly model: Model;
  /** Setting ID -> its register; only the settings this model offers. */
  readonly settings: ReadonlyMap<number, ControlRegister>;
  /** Preset fields with no setting -> their register; only those this model has. */
  readonly presetFields: ReadonlyMap<PresetFieldKey, PresetFieldRegister>;
  /** The holding registers a write may go to: those the settings and preset fields map to, nothing else. */
  readonly allowlist: ReadonlySet<number>;
  /** "clock": the clock sync's own map (registers/clock.ts), the one way to the clock registers. */
  readonly purpose?: "clock";
}

export class ControlMapError extends Error {
  override readonly name = "ControlMapError";
}

/** The cloud's rules for the setting, its range replaced by the register's on this model. */
function settingRules(settingId: number, range: Range | undefined): readonly string[] {
  const cloud = CLOUD_SETTINGS.find((setting) => setting.id === settingId)?.validation_rules ?? [];
  return range ? [...cloud.filter((rule) => !/^(between|min|max):/.test(rule)), between(range)] : cloud;
}

const entry = (settingId: number, register: number, codec: Codec, range?: Range): ControlRegister => ({
  settingId,
  register,
  codec,
  ...(range ? { range } : {}),
  rules: settingRules(settingId, range),
});

/** What a register's value is called in a message: the setting's ID, or the preset's field. */
export const nameOf = (mapped: MappedRegister): string =>
  "settingId" in mapped ? `setting ${mapped.settingId}` : `preset field ${mapped.key}`;

/** The cloud's rules for the preset fields, a number's range the register's on this model. */
function fieldRules(key: PresetFieldKey, range: Range | undefined): readonly string[] {
  switch (key) {
    case "plant-ems-enable-control.enabled":
      return ["required", "boolean"];
    case "grid-settings.export_limit_enabled":
      return ["optional", "boolean"];
    default:
      return range ? ["optional", "integer", between(range)] : ["optional", "date_format:H:i"];
  }
}

const field = (key: PresetFieldKey, register: number, codec: Codec, range?: Range): PresetFieldRegister => ({
  key,
  register,
  codec,
  ...(range ? { range } : {}),
  rules: fieldRules(key, range),
});

/** The cloud's slot setting IDs: AC charge slot 1 is 64/65/101, 2..10 the triplets from 102. */
export const acChargeIds = (slot: number): { start: number; end: number; limit: number } =>
  slot === 1 ? { start: 64, end: 65, limit: 101 } : { start: 96 + slot * 3, end: 97 + slot * 3, limit: 98 + slot * 3 };

/** DC discharge slot 1 is 53/54/129, slot 2 41/42/130, 3..10 the triplets from 131. */
export const dcDischargeIds = (slot: number): { start: number; end: number; limit: number } =>
  slot === 1
    ? { start: 53, end: 54, limit: 129 }
    : slot === 2
      ? { start: 41, end: 42, limit: 130 }
      : { start: 122 + slot * 3, end: 123 + slot * 3, limit: 124 + slot * 3 };

/** Each slot's start and end registers, slot 1 first. */
type SlotRegisters = readonly (readonly [number, number])[];

/** Single-phase slots 1 and 2 (every single-phase model): charge 94/95 and 31/32, discharge 56/57 and 44/45. */
const SINGLE_PHASE_CHARGE: SlotRegisters = [
  [94, 95],
  [31, 32],
];
const SINGLE_PHASE_DISCHARGE: SlotRegisters = [
  [56, 57],
  [44, 45],
];
/** Slots 3..10 of the extended map: charge from HR 246, discharge from HR 276, three registers apart. */
const extendedTail = (first: number): SlotRegisters =>
  Array.from({ length: 8 }, (_, index) => [first + index * 3, first + index * 3 + 1] as const);
/** Three-phase slots 1 and 2 at HR 1113-1121; 3..10 as the extended map. */
const THREE_PHASE_CHARGE: SlotRegisters = [
  [1113, 1114],
  [1115, 1116],
];
const THREE_PHASE_DISCHARGE: SlotRegisters = [
  [1118, 1119],
  [1120, 1121],
];

/** A slot's SOC limit register, and the levels it takes. */
interface SlotLimit {
  readonly register: (slot: number) => number;
  readonly range: Range;
}

function slotEntries(
  slots: SlotRegisters,
  ids: (slot: number) => { start: number; end: number; limit: number },
  /** The slot's SOC limit register, when the model has one. */
  limit?: SlotLimit,
): ControlRegister[] {
  return slots.flatMap(([start, end], index) => {
    const slot = index + 1;
    const id = ids(slot);
    return [
      entry(id.start, start, "hhmm"),
      entry(id.end, end, "hhmm"),
      ...(limit ? [entry(id.limit, limit.register(slot), "number", limit.range)] : []),
    ];
  });
}

/** What every single-phase battery inverter has (HR 0-119 and the slots 1-2). */
function singlePhaseBase(): ControlRegister[] {
  return [
    entry(71, 110, "number", DISCHARGE_FLOOR), // Battery Reserve % Limit: battery_soc_reserve
    entry(75, 114, "number", DISCHARGE_FLOOR), // Battery Cutoff % Limit: battery_discharge_min_power_reserve
    entry(66, 96, "bool"), // AC Charge Enable: enable_charge
    entry(17, 20, "bool"), // Enable AC Charge Upper % Limit: enable_charge_target
    entry(77, 116, "number", PERCENT), // AC Charge Upper % Limit: charge_target_soc
    entry(24, 27, "bool"), // Enable Eco Mode: battery_power_mode (1 self-consumption)
    entry(56, 59, "bool"), // Enable DC Discharge: enable_discharge
    entry(47, 50, "number", PERCENT), // Inverter Max Output Active Power Percent: active_power_rate
  ];
}

/**
 * The battery charge and discharge power limits (the cloud's settings 72/73, in W) as registers
 * that hold watts in steps: `step` W a word, the words `words`. Their range is the words' as
 * watts, and a value is a whole number of steps (`multiple_of`), so a request between two steps is
 * rounded before it is compared or sent.
 */
function powerLimits(
  codec: "c-rate" | "power-rate",
  step: number,
  words: Range,
  registers: { readonly charge: number; readonly discharge: number },
): ControlRegister[] {
  if (step <= 0) return [];
  const range: Range = { min: wattsOfWord(words.min, step), max: wattsOfWord(words.max, step) };
  const limit = (settingId: number, register: number): ControlRegister => ({
    settingId,
    register,
    codec,
    range,
    rules: [...settingRules(settingId, range), `multiple_of:${step}`],
    step,
    words,
  });
  return [limit(72, registers.charge), limit(73, registers.discharge)];
}

/** HR 111/112 hold a C-rate: offered only with the battery's capacity, which makes watts of it. */
const cRateEntries = (capacityKwh: number): ControlRegister[] =>
  powerLimits("c-rate", wattsPerStep(capacityKwh), C_RATE_WORDS, {
    charge: CHARGE_LIMIT_REGISTER,
    discharge: DISCHARGE_LIMIT_REGISTER,
  });

/** The three-phase's HR 1110/1108 hold 1-100 % of the stack's top rate: offered with its HV modules counted. */
const powerRateEntries = (modules: number): ControlRegister[] =>
  powerLimits("power-rate", wattsPerPercent(modules), POWER_RATE_WORDS, {
    charge: THREE_PHASE_CHARGE_RATE_REGISTER,
    discharge: THREE_PHASE_DISCHARGE_RATE_REGISTER,
  });

/** The models whose map is the single-phase base (HR 0-119), where HR 111/112 are the battery limits. */
const SINGLE_PHASE_BASE: ReadonlySet<Model> = new Set<Model>([
  "Hybrid Gen1",
  "Hybrid Gen2",
  "Hybrid Gen3",
  "HV Hybrid Gen3",
  "Hybrid Gen4",
  "AC-coupled",
  "All-in-One",
]);

/** The 10-slot map with each slot's SOC limit (charge target SOC from HR 242, discharge from HR 272). */
function extendedSlots(): ControlRegister[] {
  return [
    ...slotEntries([...SINGLE_PHASE_CHARGE, ...extendedTail(246)], acChargeIds, {
      register: (slot) => 239 + slot * 3,
      range: PERCENT,
    }),
    ...slotEntries([...SINGLE_PHASE_DISCHARGE, ...extendedTail(276)], dcDischargeIds, {
      register: (slot) => 269 + slot * 3,
      range: DISCHARGE_FLOOR,
    }),
  ];
}

function twoSlots(): ControlRegister[] {
  return [...slotEntries(SINGLE_PHASE_CHARGE, acChargeIds), ...slotEntries(SINGLE_PHASE_DISCHARGE, dcDischargeIds)];
}

/**
 * The AC-output block HR 300-359, which only AC-coupled units and All-in-Ones answer (hybrids
 * time out on it): export priority, the power limits as % of rated power, EPS, and pause.
 */
function acConfigBlock(): ControlRegister[] {
  return [
    entry(265, 311, "number"), // Export Power Priority
    entry(267, 313, "number", POWER_PERCENT), // Inverter Charge Power Percentage
    entry(268, 314, "number", POWER_PERCENT), // Inverter Discharge Power Percentage
    entry(271, 317, "bool"), // Enable EPS
    ...pauseEntries(),
  ];
}

/** Pause battery (HR 318-320, in the AC-output block): its mode and its one slot. */
function pauseEntries(): ControlRegister[] {
  return [
    entry(96, 318, "number"), // Pause Battery mode
    entry(155, 319, "hhmm"), // Pause Battery Start Time
    entry(156, 320, "hhmm"), // Pause Battery End Time
  ];
}

/**
 * A gateway's own holding registers, as GivTCP reads and writes them on a gateway (its Gateway
 * model takes the single-phase base map whole; read.py reads the controls, the 10-slot map and
 * the pause slot from the gateway; write.py writes each to the gateway's registers at 0x11, never
 * to the All-in-Ones behind it): the single-phase base, the 10 slots and pause battery. The
 * captured gateway answers all of HR 0-359 with values that fit (eco on, reserve 4 %, charge slot
 * 1 00:00-05:00, target 100 %, discharge slot targets 4 %, pause mode 0/1, pause slot 00:00-23:59).
 * The rest of its AC-output block (export priority, EPS, HR 313/314 as %) is left out: GivTCP
 * offers none of it on a gateway, and HR 313/314 are its power limits in W (gatewayRateEntries).
 */
function gatewayEntries(): ControlRegister[] {
  return [...singlePhaseBase(), ...extendedSlots(), ...pauseEntries()];
}

/**
 * A gateway's battery charge and discharge power limits (the cloud's settings 72/73, in W) as
 * HR 313/314, % of its All-in-Ones' rating (gateway-rate.ts): offered when the gateway reports
 * how many it has (IR 1700).
 */
const gatewayRateEntries = (aioCount: number): ControlRegister[] =>
  powerLimits("power-rate", gatewayWattsPerStep(aioCount), GATEWAY_RATE_WORDS, {
    charge: GATEWAY_CHARGE_LIMIT_REGISTER,
    discharge: GATEWAY_DISCHARGE_LIMIT_REGISTER,
  });

/**
 * An EMS plant's own slots (HR 2044-2061): discharge slots 1-3 from HR 2044 and charge slots 1-3
 * from HR 2053, each start, end and SOC target, under the cloud's slot setting IDs. Its plant
 * enable (HR 2040), export slots (HR 2062-2070) and export limit (HR 2071) are preset fields
 * (emsPresetFields).
 */
function emsSlots(): ControlRegister[] {
  const triplets = (first: number): SlotRegisters =>
    Array.from({ length: 3 }, (_, index) => [first + index * 3, first + index * 3 + 1] as const);
  return [
    ...slotEntries(triplets(2053), acChargeIds, { register: (slot) => 2052 + slot * 3, range: PERCENT }),
    ...slotEntries(triplets(2044), dcDischargeIds, { register: (slot) => 2043 + slot * 3, range: DISCHARGE_FLOOR }),
  ];
}

/**
 * The EMS's plant enable (HR 2040, givenergy-modbus's EMS_PLANT_ENABLE), its export slots 1-3
 * (HR 2062-2070: start, end, battery level) and plant export power limit in W (HR 2071,
 * EMS_EXPORT_POWER_LIMIT); the EMS has no export-limit switch of its own.
 */
function emsPresetFields(): PresetFieldRegister[] {
  return [
    field("plant-ems-enable-control.enabled", 2040, "bool"),
    ...EXPORT_SLOTS.flatMap((slot) => {
      const keys = exportSlotKeys(slot);
      const first = 2059 + slot * 3;
      return [
        field(keys.start, first, "hhmm"),
        field(keys.end, first + 1, "hhmm"),
        field(keys.limit, first + 2, "number", DISCHARGE_FLOOR),
      ];
    }),
    field("grid-settings.export_limit_watts", 2071, "number", EMS_EXPORT_WATTS),
  ];
}

/**
 * The three-phase export limit (HR 1102) and its switch (HR 1103), givenergy-modbus's
 * inverter_threephase.py. That map decodes HR 1102 as a raw number (watts in the vendor's
 * register list, as the cloud's grid-settings gives it) and classes both as installer-tier
 * writes; they are offered because the cloud offers the same control to the user. No public single-phase map has an export limit register that is
 * known to work (the HR 300-359 block has none; the peak-shaving pair at HR 20000 is unpolled
 * and unconfirmed on hardware), so single-phase models do not offer grid-settings over the LAN.
 */
function threePhasePresetFields(): PresetFieldRegister[] {
  return [
    field("grid-settings.export_limit_watts", 1102, "number", THREE_PHASE_EXPORT_WATTS),
    field("grid-settings.export_limit_enabled", 1103, "bool"),
  ];
}

function presetFieldsOf(model: Model): PresetFieldRegister[] {
  switch (model) {
    case "EMS":
      return emsPresetFields();
    case "Three-phase hybrid":
    case "Three-phase AC-coupled":
      return threePhasePresetFields();
    default:
      return [];
  }
}

/** The ARM firmware from which a Gen3 hybrid has the 10-slot map. */
const GEN3_EXTENDED_FROM_ARM = 303;

function entriesOf(detected: Pick<Detected, "model" | "armFirmware">): ControlRegister[] {
  switch (detected.model) {
    case "Hybrid Gen1":
    case "Hybrid Gen2":
      return [...singlePhaseBase(), ...twoSlots()];
    case "Hybrid Gen3":
      return [
        ...singlePhaseBase(),
        ...((detected.armFirmware ?? 0) >= GEN3_EXTENDED_FROM_ARM ? extendedSlots() : twoSlots()),
      ];
    case "HV Hybrid Gen3":
    case "Hybrid Gen4":
      return [...singlePhaseBase(), ...extendedSlots()];
    case "AC-coupled":
      return [...singlePhaseBase(), ...twoSlots(), ...acConfigBlock()];
    case "All-in-One":
      return [...singlePhaseBase(), ...extendedSlots(), ...acConfigBlock()];
    case "Three-phase hybrid":
    case "Three-phase AC-coupled":
      return [
        entry(71, 1109, "number", THREE_PHASE_SOC), // the three-phase's battery_soc_reserve
        entry(66, 1112, "bool"), // AC charge enable
        // Enable DC Discharge: ForceDischargeEn, the discharge slots' switch (GivTCP's enable_discharge);
        // outside them the three-phase covers the home's demand, so it has no eco switch (docs/entities.md).
        entry(56, 1122, "bool"),
        entry(17, 20, "bool"), // enable_charge_target, shared with single-phase
        entry(77, 1111, "number", THREE_PHASE_SOC), // the three-phase's charge_target_soc
        ...slotEntries([...THREE_PHASE_CHARGE, ...extendedTail(246)], acChargeIds),
        ...slotEntries([...THREE_PHASE_DISCHARGE, ...extendedTail(276)], dcDischargeIds),
      ];
    case "EMS":
      return emsSlots();
    case "Gateway":
      return gatewayEntries();
    // No public map of these settings' registers (Polar).
    case "Polar":
    case "Unknown":
      return [];
  }
}

const THREE_PHASE: ReadonlySet<Model> = new Set<Model>(["Three-phase hybrid", "Three-phase AC-coupled"]);

/** What the controller's battery is, where the power limits need it. */
export interface BatteryFacts {
  /** The nominal kWh (HR 55's, battery-capacity.ts): a single-phase model's C-rate needs it. */
  readonly capacityKwh?: number;
  /** The HV modules behind the BCU (its IR 64): the three-phase's power rates need them. */
  readonly hvModules?: number;
  /** A gateway's All-in-Ones (its IR 1700): its power rates are % of their rating. */
  readonly aioCount?: number;
}

function rateEntriesOf(model: Model, battery: BatteryFacts): ControlRegister[] {
  const { capacityKwh, hvModules, aioCount } = battery;
  if (model === "Gateway") return aioCount !== undefined && aioCount > 0 ? gatewayRateEntries(aioCount) : [];
  if (SINGLE_PHASE_BASE.has(model) && capacityKwh !== undefined && capacityKwh > 0) return cRateEntries(capacityKwh);
  if (THREE_PHASE.has(model) && hvModules !== undefined && hvModules > 0) return powerRateEntries(hvModules);
  return [];
}

/**
 * The model's control map: the settings it offers over the LAN and the registers it may write;
 * with what its battery is (battery-capacity.ts, battery-rate.ts), its charge and discharge power
 * limits too.
 */
export function controlMapOf(
  detected: Pick<Detected, "model" | "armFirmware">,
  battery: BatteryFacts = {},
): ControlMap {
  const rates = rateEntriesOf(detected.model, battery);
  const entries = [...entriesOf(detected), ...rates];
  const fields = presetFieldsOf(detected.model);
  return {
    model: detected.model,
    settings: new Map(entries.map((one) => [one.settingId, one])),
    presetFields: new Map(fields.map((one) => [one.key, one])),
    allowlist: new Set([...entries, ...fields].map((one) => one.register)),
  };
}

/**
 * The map a clock sync writes with: HR 35-40 and nothing else. The clock registers are in no
 * model's settings allowlist (a setting's write can never reach them); only this map, which
 * control/'s clock sync alone asks for, lets a write through to them.
 */
export function clockWriteMap(model: Model): ControlMap {
  return { model, settings: new Map(), presetFields: new Map(), allowlist: new Set(CLOCK_REGISTERS), purpose: "clock" };
}

/** Registers that are never written over the LAN, whatever the model, and why. */
const NEVER_WRITTEN: readonly { from: number; to: number; what: string }[] = [
  { from: 29, to: 29, what: "battery calibration" },
  { from: 35, to: 40, what: "the inverter's clock, which only the clock sync writes" },
  { from: 63, to: 93, what: "grid protection limits (installer)" },
  { from: 115, to: 115, what: "anti-islanding detection (installer)" },
  { from: 162, to: 162, what: "the energy-total reset (destructive)" },
  { from: 163, to: 163, what: "the inverter's restart" },
  { from: 300, to: 302, what: "plant mode (installer)" },
  { from: 308, to: 310, what: "battery ratings (installer)" },
  { from: 331, to: 331, what: "forced off-grid (destructive)" },
  { from: 1016, to: 1016, what: "the three-phase factory reset (destructive)" },
  { from: 5003, to: 5003, what: "black start (destructive)" },
  { from: 5004, to: 5004, what: "the factory-defaults restore (destructive)" },
];

/**
 * Throws a ControlMapError naming the register and why unless a write to it is allowed on this
 * model; the caller checks before anything is framed.
 */
export function checkWritable(map: ControlMap, register: number): void {
  const named = NEVER_WRITTEN.find((range) => register >= range.from && register <= range.to);
  const clockSync = map.purpose === "clock" && isClockRegister(register);
  if (named && !clockSync)
    throw new ControlMapError(
      `holding register ${register} (${named.what}) is never written over the LAN: change it on the inverter or in the vendor's installer app`,
    );
  if (!map.allowlist.has(register))
    throw new ControlMapError(
      `holding register ${register} is not in the ${map.model}'s allowlist: only the registers of the settings and presets offered over the LAN are written`,
    );
}

/** A setting's value as the cloud gives it (boolean, number, "HH:mm") as the register's word. */
export function encodeSetting(control: MappedRegister, value: boolean | number | string): number {
  switch (control.codec) {
    case "bool":
      if (typeof value === "boolean") return value ? 1 : 0;
      if (value === 0 || value === 1 || value === "0" || value === "1") return Number(value);
      throw new ControlMapError(`${nameOf(control)} takes true or false, not ${JSON.stringify(value)}`);
    case "number": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof number !== "number" || !Number.isInteger(number) || number < 0 || number > 0xffff)
        throw new ControlMapError(
          `${nameOf(control)} takes a whole number from 0 to 65535, not ${JSON.stringify(value)}`,
        );
      return number;
    }
    case "hhmm": {
      const match = typeof value === "string" ? /^([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d)?$/.exec(value) : null;
      if (!match) throw new ControlMapError(`${nameOf(control)} takes a time as HH:mm, not ${JSON.stringify(value)}`);
      return Number(match[1]) * 100 + Number(match[2]);
    }
    case "c-rate":
    case "power-rate": {
      const watts = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      const step = "step" in control ? control.step : undefined;
      const words = ("words" in control ? control.words : undefined) ?? C_RATE_WORDS;
      const word = typeof watts === "number" && Number.isFinite(watts) && step ? wordOfWatts(watts, step) : undefined;
      if (word === undefined || word < words.min || word > words.max)
        throw new ControlMapError(
          `${nameOf(control)} takes watts from ${step ? wattsOfWord(words.min, step) : "?"} to ${step ? wattsOfWord(words.max, step) : "?"}, not ${JSON.stringify(value)}`,
        );
      return word;
    }
  }
}

/** The register's word as the cloud gives the setting's value; a word no value encodes throws. */
export function decodeSetting(control: MappedRegister, word: number): boolean | number | string {
  switch (control.codec) {
    case "bool":
      return word !== 0;
    case "number":
      return word;
    case "hhmm": {
      const hours = Math.floor(word / 100);
      const minutes = word % 100;
      if (hours > 23 || minutes > 59)
        throw new ControlMapError(
          `holding register ${control.register} holds ${word}, which is no time of day (HHMM): ${nameOf(control)} cannot be read`,
        );
      return `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
    }
    case "c-rate":
    case "power-rate":
      return wattsOfWord(word, "step" in control && control.step ? control.step : 0);
  }
}

import type { PresetIdentifier } from "../../../cloud/index.js";
import type { SettingValue } from "../stored-value.js";

export interface PresetParameter {
  readonly description: string;
  readonly validation: readonly string[];
}

/** Which timed preset last switched DC discharge on; only an inverter that ignores Eco mode when discharging needs it. */
export type DischargeOwner = "timed-discharge" | "timed-export";

/** Preset state that has no setting of its own in the listing (an EMS's export slot times are "HH:mm"). */
export type InternalValues = Readonly<Record<string, boolean | number | string>>;

/** What a preset may read of the inverter. */
export interface PresetContext {
  setting(id: number): SettingValue | undefined;
  /** A setting's value rules (no markers such as writeonly), for a parameter that maps onto it. */
  valueRules(id: number): readonly string[];
  hasFlag(flag: string): boolean;
  /** An EMS plant: its timed presets run its own three charge, discharge and export slots. */
  readonly emsPlant: boolean;
  readonly dischargeOwner: DischargeOwner | undefined;
  internal(identifier: PresetIdentifier): InternalValues;
  /** Every readable setting with its factory value, in listed order. */
  factoryDefaults(): readonly SettingWrite[];
}

export interface SettingWrite {
  readonly id: number;
  readonly value: SettingValue;
}

/** What applying a preset changes, in order. */
export interface PresetPlan {
  readonly writes: readonly SettingWrite[];
  readonly internal?: { readonly identifier: PresetIdentifier; readonly values: InternalValues };
  readonly dischargeOwner?: DischargeOwner;
  /** reset-to-defaults: internal state back to the factory's too. */
  readonly resetInternal?: boolean;
}

export interface PresetDefinition {
  readonly identifier: PresetIdentifier;
  readonly name: string;
  readonly description: string;
  /** Parameters as listed, Laravel-style keys allowed (`slots.*.start_time`). */
  parameters(context: PresetContext): Readonly<Record<string, PresetParameter>>;
  /** Rules checked but not listed (smart-load's parameters are not shown). */
  hiddenRules?: Readonly<Record<string, readonly string[]>>;
  /** Extra checks the rule language cannot say; problems by field. */
  extraErrors?(body: Readonly<Record<string, unknown>>, context: PresetContext): Record<string, string[]>;
  /** The preset's current values, in the shape of its parameters. */
  values(context: PresetContext): Record<string, unknown>;
  /** The changes a validated body asks for. */
  plan(context: PresetContext, body: Readonly<Record<string, unknown>>): PresetPlan;
}

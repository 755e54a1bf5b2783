import type { z } from "zod";
import type { PresetIdentifier, presetDescriptor, settingDescriptor } from "../../cloud/index.js";
import { booleanValue, checkFields, checkValue, parseRules } from "../../cloud/index.js";
import {
  type ControlAnswer,
  invalid,
  LOCKED,
  NO_ACCESS,
  OFFLINE,
  READ,
  TIMEOUT,
  unknownSetting,
  WRITTEN,
} from "./answers.js";
import { factoryDefault } from "./defaults.js";
import { GEN3_HYBRID_SETTINGS, type SettingDefinition } from "./listing.js";
import { findPreset, legacyId, PRESET_DEFINITIONS } from "./presets/catalogue.js";
import { exportState } from "./presets/ems-slots.js";
import { internalFactory, internalFieldRules } from "./presets/internal.js";
import type { DischargeOwner, InternalValues, PresetContext, PresetDefinition, PresetPlan } from "./presets/types.js";
import { type SettingValue, storedValue } from "./stored-value.js";
import { writtenValue } from "./written-value.js";

export interface DeviceConditions {
  offline: boolean;
  locked: boolean;
  /** The account has no access: every request answers -3. */
  noAccess?: boolean;
}

export interface InverterControlOptions {
  readonly serial: string;
  /** The inverter's flags, e.g. `full-power-discharge-in-eco-mode`. */
  readonly flags: readonly string[];
  /** Seeded numbers in [0, 1): whether a write that timed out was applied anyway. */
  readonly random: () => number;
  /** An EMS plant's own control: its timed presets run its three charge, discharge and export slots. */
  readonly emsPlant?: boolean;
}

export type PresetResult =
  | { kind: "ok"; success: boolean; message: string }
  | { kind: "invalid"; errors: Record<string, string[]> }
  | { kind: "unknown" };

const REQUEST_RULES = { context: ["optional", "string"], force: ["optional", "boolean"] } as const;

const MARKERS = new Set(["optional", "required", "nullable", "writeonly"]);

/**
 * A simulated Gen3 hybrid's settings and presets, as the cloud reads and writes them: the
 * listing's validation rules, remote control codes for an offline, locked or slow inverter, and
 * the presets' mapping onto settings. The house physics reads the settings through `get`.
 */
export class InverterControl {
  readonly serial: string;
  conditions: DeviceConditions = { offline: false, locked: false };

  private readonly flags: ReadonlySet<string>;
  private readonly random: () => number;
  private readonly emsPlant: boolean;
  private readonly definitions = new Map<number, SettingDefinition>();
  private readonly values = new Map<number, SettingValue>();
  private internal = internalFactory();
  private dischargeOwner: DischargeOwner | undefined;
  private pendingTimeouts = 0;
  /** Setting writes the next preset write gets before it answers -1; undefined for no such fault. */
  private presetStop: number | undefined;
  private readonly listeners = new Set<(id: number, value: SettingValue) => void>();

  constructor(options: InverterControlOptions) {
    this.serial = options.serial;
    this.flags = new Set(options.flags);
    this.random = options.random;
    this.emsPlant = options.emsPlant === true;
    for (const setting of GEN3_HYBRID_SETTINGS) {
      this.definitions.set(setting.id, setting);
      const value = factoryDefault(setting);
      if (value !== undefined) this.values.set(setting.id, value);
    }
  }

  /** The setting's current value; undefined for an unknown or write-only setting. */
  get(id: number): SettingValue | undefined {
    return this.values.get(id);
  }

  /** The next `count` requests that reach the inverter answer -1; a write among them applies or not, by `random`. */
  injectTimeouts(count: number): void {
    this.pendingTimeouts += Math.max(0, Math.floor(count));
  }

  /**
   * The next preset write applies its first `writes` setting writes (those that change a value)
   * and then answers -1 without applying the rest: a preset left half applied, deterministically.
   */
  stopNextPresetAfter(writes: number): void {
    this.presetStop = Math.max(0, Math.floor(writes));
  }

  /** Hears every applied write, including one that writes the value already held and a write-only command. */
  onChange(listener: (id: number, value: SettingValue) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  settingsList(): z.input<typeof settingDescriptor>[] {
    return [...this.definitions.values()].map((setting) => ({
      id: setting.id,
      name: setting.name,
      validation: setting.validation,
      validation_rules: [...setting.rules],
    }));
  }

  /**
   * -3 for a setting this inverter does not have (or no access), -4 for a write-only one, -2
   * offline, -7 locked, -1 for an injected timeout.
   */
  read(id: number): ControlAnswer {
    const setting = this.definitions.get(id);
    if (this.conditions.noAccess) return NO_ACCESS;
    if (!setting) return unknownSetting(id);
    if (setting.writeonly) return invalid(`${setting.name} can only be written, not read`);
    const refusal = this.deviceRefusal();
    if (refusal) return refusal;
    if (this.takeTimeout()) return TIMEOUT;
    return { value: this.values.get(id) ?? "", success: true, message: READ };
  }

  /**
   * The value is checked against the setting's rules before the inverter is asked (-4 with the
   * problem in plain words), so a bad value is refused even when the inverter is offline. Values
   * sent as text are taken as the real service takes them (see written-value.ts).
   */
  write(id: number, sent: unknown): ControlAnswer {
    const setting = this.definitions.get(id);
    if (this.conditions.noAccess) return NO_ACCESS;
    if (!setting) return unknownSetting(id);
    const value = writtenValue(setting.rules, sent);
    const check = checkValue(value, setting.rules);
    if (!check.ok) return invalid(`${setting.name} ${check.problems.join("; ")}`);
    const stored = storedValue(setting.rules, value);
    if (stored === undefined) return invalid(`${setting.name} cannot hold ${JSON.stringify(value)}`);
    const refusal = this.deviceRefusal();
    if (refusal) return refusal;
    if (this.takeTimeout()) {
      if (this.random() < 0.5) this.store(setting, stored);
      return TIMEOUT;
    }
    this.store(setting, stored);
    return { value: stored, success: true, message: WRITTEN };
  }

  /**
   * A write that reached the inverter over its dongle (Modbus 0x06): the register's `rules` on
   * the model hold (a range may be wider than the cloud's listing's: the cloud then serves what
   * the register holds), and the cloud's conditions (offline, locked, timeouts) do not, since
   * they are the cloud's view of the inverter, not the inverter's.
   */
  writeFromLan(id: number, sent: unknown, rules: readonly string[]): ControlAnswer {
    const setting = this.definitions.get(id);
    if (!setting || setting.writeonly) return unknownSetting(id);
    const check = checkValue(sent, rules);
    if (!check.ok) return invalid(`${setting.name} ${check.problems.join("; ")}`);
    const stored = storedValue(rules, sent);
    if (stored === undefined) return invalid(`${setting.name} cannot hold ${JSON.stringify(sent)}`);
    this.store(setting, stored);
    return { value: stored, success: true, message: WRITTEN };
  }

  /** A preset's own state that has no setting (plant EMS control, grid settings), as the cloud serves it. */
  internalValue(identifier: PresetIdentifier, field: string): boolean | number | string | undefined {
    const held = this.context().internal(identifier);
    return this.emsPlant && identifier === "timed-export" ? exportState(held)[field] : held[field];
  }

  /**
   * A write over the dongle to a register that holds a preset's own state: the register's
   * `rules` on the model hold, as for a setting, and the cloud then serves the new value.
   */
  writeInternalFromLan(
    identifier: PresetIdentifier,
    field: string,
    sent: boolean | number | string,
    rules: readonly string[],
  ): ControlAnswer {
    if (!internalFieldRules(identifier, field, this.emsPlant)) return invalid(`${identifier} has no field ${field}`);
    const check = checkValue(sent, rules);
    if (!check.ok) return invalid(`${identifier} ${field} ${check.problems.join("; ")}`);
    const held = this.context().internal(identifier);
    this.internal = { ...this.internal, [identifier]: { ...held, [field]: sent } };
    return { value: sent, success: true, message: WRITTEN };
  }

  presetsList(): z.input<typeof presetDescriptor>[] {
    const context = this.context();
    return PRESET_DEFINITIONS.map((preset) => ({
      id: legacyId(preset.identifier),
      identifier: preset.identifier,
      name: preset.name,
      description: preset.description,
      parameters: Object.fromEntries(
        Object.entries(preset.parameters(context)).map(([key, parameter]) => [
          key,
          { description: parameter.description, validation: [...parameter.validation] },
        ]),
      ),
    }));
  }

  /** The preset's current values in the shape of its parameters; undefined for an unknown preset. */
  presetValues(identifier: string): Record<string, unknown> | undefined {
    const preset = findPreset(identifier);
    return preset ? structuredClone(preset.values(this.context())) : undefined;
  }

  /**
   * Modify Preset. `force` true, or left out (the reference: "by default the server writes every
   * setting of the preset that matches the provided values"), writes every setting the body
   * names; `force: false` writes only those whose value differs. Stops at the first write that
   * fails, as the inverter does, leaving the earlier ones applied.
   */
  applyPreset(reference: string, body: Readonly<Record<string, unknown>>): PresetResult {
    const preset = findPreset(reference);
    if (!preset) return { kind: "unknown" };
    const context = this.context();
    const errors = this.presetErrors(preset, context, body);
    if (Object.keys(errors).length > 0) return { kind: "invalid", errors };
    const refusal = this.conditions.noAccess ? NO_ACCESS : this.deviceRefusal();
    if (refusal) return { kind: "ok", success: false, message: refusal.message };
    const force = body.force === undefined || body.force === null || booleanValue(body.force) === true;
    return { kind: "ok", ...this.execute(preset.plan(context, body), force) };
  }

  /** Every readable setting by ID, for snapshots. */
  captureSettings(): Record<string, SettingValue> {
    const out: Record<string, SettingValue> = {};
    for (const [id, value] of this.values) out[String(id)] = value;
    return out;
  }

  /**
   * Writes back the settings that differ. Fails as a whole when the inverter cannot be changed
   * (offline, locked); otherwise `failed` lists the settings that could not be written
   * (unknown, write-only, refused by their rules, or timed out).
   */
  restoreSettings(values: Readonly<Record<string, SettingValue>>): { success: boolean; failed: number[] } {
    const ids = Object.keys(values).map(Number);
    if (this.conditions.noAccess || this.deviceRefusal()) return { success: false, failed: ids };
    const failed: number[] = [];
    for (const id of ids) {
      const setting = this.definitions.get(id);
      const value = values[String(id)];
      const stored =
        setting && !setting.writeonly && checkValue(value, setting.rules).ok
          ? storedValue(setting.rules, value)
          : undefined;
      if (!setting || stored === undefined) {
        failed.push(id);
        continue;
      }
      if (this.values.get(id) === stored) continue;
      if (this.takeTimeout()) {
        if (this.random() < 0.5) this.store(setting, stored);
        failed.push(id);
        continue;
      }
      this.store(setting, stored);
    }
    return { success: failed.length === 0, failed };
  }

  /** A preset's values, for a preset profile. */
  capturePreset(identifier: string): Record<string, unknown> | undefined {
    return this.presetValues(identifier);
  }

  /** Applies a profile's stored values, writing only what differs; true when all of it applied. */
  applyPresetValues(identifier: string, values: Readonly<Record<string, unknown>>): boolean {
    const { context: _context, force: _force, ...fields } = values;
    const result = this.applyPreset(identifier, { ...fields, force: false });
    return result.kind === "ok" && result.success;
  }

  private context(): PresetContext {
    return {
      setting: (id) => this.values.get(id),
      valueRules: (id) =>
        parseRules(this.definitions.get(id)?.rules ?? [])
          .filter((rule) => !MARKERS.has(rule.kind))
          .map((rule) => rule.text),
      hasFlag: (flag) => this.flags.has(flag),
      emsPlant: this.emsPlant,
      dischargeOwner: this.dischargeOwner,
      internal: (identifier: PresetIdentifier): InternalValues =>
        (this.internal as Partial<Record<PresetIdentifier, InternalValues>>)[identifier] ?? {},
      factoryDefaults: () =>
        [...this.definitions.values()].flatMap((setting) => {
          const value = factoryDefault(setting);
          return value === undefined ? [] : [{ id: setting.id, value }];
        }),
    };
  }

  private presetErrors(
    preset: PresetDefinition,
    context: PresetContext,
    body: Readonly<Record<string, unknown>>,
  ): Record<string, string[]> {
    const spec: Record<string, readonly string[]> = { ...REQUEST_RULES, ...preset.hiddenRules };
    for (const [key, parameter] of Object.entries(preset.parameters(context))) spec[key] = parameter.validation;
    const errors = checkFields(body, spec);
    for (const [key, problems] of Object.entries(preset.extraErrors?.(body, context) ?? {})) {
      errors[key] = [...(errors[key] ?? []), ...problems];
    }
    return errors;
  }

  private execute(plan: PresetPlan, force: boolean): { success: boolean; message: string } {
    const stopAfter = this.presetStop;
    this.presetStop = undefined;
    let written = 0;
    for (const { id, value } of plan.writes) {
      const setting = this.definitions.get(id);
      if (!setting) continue;
      const stored = storedValue(setting.rules, value);
      if (stored === undefined || !checkValue(stored, setting.rules).ok) {
        return { success: false, message: `${setting.name} cannot hold ${JSON.stringify(value)}` };
      }
      if (!force && this.values.get(id) === stored) continue;
      if (stopAfter !== undefined && written >= stopAfter)
        return { success: false, message: `${TIMEOUT.message} writing ${setting.name}; it was not applied` };
      written++;
      if (this.takeTimeout()) {
        const applied = this.random() < 0.5;
        if (applied) this.store(setting, stored);
        return {
          success: false,
          message: `${TIMEOUT.message} writing ${setting.name}; it may or may not have been applied`,
        };
      }
      this.store(setting, stored);
    }
    if (plan.resetInternal) {
      this.internal = internalFactory();
      this.dischargeOwner = undefined;
    }
    if (plan.internal) this.internal = { ...this.internal, [plan.internal.identifier]: { ...plan.internal.values } };
    if (plan.dischargeOwner) this.dischargeOwner = plan.dischargeOwner;
    return { success: true, message: "Preset applied successfully" };
  }

  private deviceRefusal(): ControlAnswer | undefined {
    if (this.conditions.offline) return OFFLINE;
    if (this.conditions.locked) return LOCKED;
    return undefined;
  }

  private takeTimeout(): boolean {
    if (this.pendingTimeouts === 0) return false;
    this.pendingTimeouts--;
    return true;
  }

  private store(setting: SettingDefinition, value: SettingValue): void {
    if (!setting.writeonly) this.values.set(setting.id, value);
    for (const listener of this.listeners) listener(setting.id, value);
  }
}

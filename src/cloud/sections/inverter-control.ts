import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import type { RemoteControlResult } from "../results.js";
import { data, dataOrTopLevel, successMessage } from "../schemas/common.js";
import {
  multiControlResults,
  type PresetDescriptor,
  type PresetIdentifier,
  type PresetLegacyId,
  type PresetValues,
  presetList,
  presetValues,
  remoteControlAnswer,
  type SettingDescriptor,
  type SettingValue,
  type SlotsInput,
  settingList,
  slotsInput,
} from "../schemas/inverter-control.js";

const CONTROL = ["api:inverter:control"] as const;

const presetsAnswer = data(presetList);
const settingsAnswer = data(settingList);

export const inverterControlEndpoints = {
  presets: defineEndpoint({
    name: "Get Setting Presets",
    method: "GET",
    path: "/inverter/{inverter_serial_number}/presets",
    scopes: CONTROL,
  }),
  presetValues: defineEndpoint({
    name: "Get Preset Values",
    method: "GET",
    path: "/inverter/{inverter_serial_number}/presets/{id}",
    scopes: CONTROL,
  }),
  modifyPreset: defineEndpoint({
    name: "Modify Preset",
    method: "POST",
    path: "/inverter/{inverter_serial_number}/presets/{preset}",
    scopes: CONTROL,
  }),
  settings: defineEndpoint({
    name: "Get Setting List",
    method: "GET",
    path: "/inverter/{inverter_serial_number}/settings",
    scopes: CONTROL,
  }),
  readSetting: defineEndpoint({
    name: "Read Setting",
    method: "POST",
    path: "/inverter/{inverter_serial_number}/settings/{setting_id}/read",
    scopes: CONTROL,
    idempotent: true,
  }),
  /** The reference's Modify Setting, whose path and body the API notes give. */
  writeSetting: defineEndpoint({
    name: "Modify Setting",
    method: "POST",
    path: "/inverter/{inverter_serial_number}/settings/{setting_id}/write",
    scopes: CONTROL,
  }),
  /** From the API notes. */
  multiControlRead: defineEndpoint({
    name: "Multi-Control Read",
    method: "POST",
    path: "/multi-control/read",
    scopes: CONTROL,
    idempotent: true,
  }),
  multiControlWrite: defineEndpoint({
    name: "Multi-Control Write",
    method: "POST",
    path: "/multi-control/write",
    scopes: CONTROL,
  }),
} as const;

/** Fields of a preset's parameters (see Get Setting Presets); only the changed ones is best. */
export interface PresetFields {
  readonly enabled?: boolean;
  readonly slots?: SlotsInput;
  readonly [field: string]: unknown;
}

export interface ControlOptions extends CallOptions {
  /** Recorded as 'via' in the remote control history; the client's context when left out. */
  readonly context?: string;
}

export interface ModifyPresetOptions extends ControlOptions {
  /** Sent only when given, so the service's default applies otherwise. */
  readonly force?: boolean;
}

export interface PresetChange {
  readonly success: boolean;
  readonly message?: string | null;
}

export interface MultiControlReadRequest {
  readonly inverter_serials: readonly string[];
  readonly setting_id: number;
}

export interface MultiControlWriteRequest extends MultiControlReadRequest {
  readonly value: string | number | boolean;
}

export const MAX_MULTI_CONTROL_SERIALS = 1000;

const serial = z.string().min(1, "expected an inverter serial");
const settingId = z.number().int().nonnegative();
const writableValue = z.union([z.string(), z.number(), z.boolean()]);

const presetKey = z.union([
  z.string().min(1, "expected a preset identifier"),
  z.number().int().nonnegative("expected a legacy preset ID"),
]);

const presetBody = z.looseObject({ slots: slotsInput.optional() });

const multiRead = z.object({
  inverter_serials: z
    .array(serial)
    .min(1, "expected at least one inverter serial")
    .max(MAX_MULTI_CONTROL_SERIALS, `at most ${MAX_MULTI_CONTROL_SERIALS} inverter serials`),
  setting_id: settingId,
});
const multiWrite = multiRead.extend({ value: writableValue });

/**
 * The reference types the multi-control value as a string: numbers are sent as their digits,
 * booleans as "1"/"0" (the boolean rule refuses the strings "true" and "false").
 */
function multiControlValue(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  return String(value);
}

export class InverterControlApi {
  constructor(private readonly http: CloudHttp) {}

  /** The presets this inverter supports, each with the parameter rules Modify Preset obeys. */
  presets(serial: string, options?: CallOptions): Promise<PresetDescriptor[]> {
    return this.http.call(
      inverterControlEndpoints.presets,
      { params: { inverter_serial_number: serial } },
      presetsAnswer,
      options,
    );
  }

  /** A preset's current values, e.g. {enabled} or {enabled, slots}; `identifier` is its string ID. */
  async presetValues(
    serial: string,
    identifier: PresetIdentifier | string,
    options?: CallOptions,
  ): Promise<PresetValues> {
    const endpoint = inverterControlEndpoints.presetValues;
    const id = this.http.validate(endpoint, z.string().min(1, "expected a preset identifier"), identifier);
    return this.http.call(endpoint, { params: { inverter_serial_number: serial, id } }, data(presetValues), options);
  }

  /**
   * Writes a preset. Send only the fields to change, e.g. one slot: {slots: {2: {start_time,
   * end_time}}}. `enabled: false` on a timed preset disables all its slots. The body is
   * `fields` plus `context` (and `force` when given), which override same-named fields.
   */
  async modifyPreset(
    serial: string,
    preset: PresetIdentifier | PresetLegacyId | string | number,
    fields: PresetFields,
    options: ModifyPresetOptions = {},
  ): Promise<PresetChange> {
    const endpoint = inverterControlEndpoints.modifyPreset;
    const key = this.http.validate(endpoint, presetKey, preset);
    this.http.validate(endpoint, presetBody, fields);
    const body: Record<string, unknown> = { ...fields, context: options.context ?? this.http.context };
    if (options.force !== undefined) body.force = options.force;
    const answer = await this.http.call(
      endpoint,
      { params: { inverter_serial_number: serial, preset: key }, body },
      dataOrTopLevel(successMessage),
      options,
    );
    return { success: answer.success, message: answer.message };
  }

  /** Every setting this inverter exposes, with its validation rules; they differ by model and firmware. */
  settings(serial: string, options?: CallOptions): Promise<SettingDescriptor[]> {
    return this.http.call(
      inverterControlEndpoints.settings,
      { params: { inverter_serial_number: serial } },
      settingsAnswer,
      options,
    );
  }

  /** Reads a setting from the device; a refusal arrives with HTTP 200 and becomes `ok: false`. */
  async readSetting(
    serial: string,
    id: number,
    options: ControlOptions = {},
  ): Promise<RemoteControlResult<SettingValue>> {
    const endpoint = inverterControlEndpoints.readSetting;
    const setting_id = this.http.validate(endpoint, settingId, id);
    return this.http.call(
      endpoint,
      {
        params: { inverter_serial_number: serial, setting_id },
        body: { context: options.context ?? this.http.context },
      },
      data(remoteControlAnswer),
      options,
    );
  }

  /**
   * Writes a setting; never retried on a server error. When the result says `mayHaveApplied`,
   * read the setting back before writing again.
   */
  async writeSetting(
    serial: string,
    id: number,
    value: string | number | boolean,
    options: ControlOptions = {},
  ): Promise<RemoteControlResult<SettingValue>> {
    const endpoint = inverterControlEndpoints.writeSetting;
    const checked = this.http.validate(endpoint, z.object({ setting_id: settingId, value: writableValue }), {
      setting_id: id,
      value,
    });
    return this.http.call(
      endpoint,
      {
        params: { inverter_serial_number: serial, setting_id: checked.setting_id },
        body: { value: checked.value, context: options.context ?? this.http.context },
      },
      data(remoteControlAnswer),
      options,
    );
  }

  /** Reads one setting from up to 1,000 inverters: serial -> result (only the value comes back). */
  async multiControlRead(
    request: MultiControlReadRequest,
    options?: CallOptions,
  ): Promise<Record<string, RemoteControlResult<SettingValue>>> {
    const endpoint = inverterControlEndpoints.multiControlRead;
    const body = this.http.validate(endpoint, multiRead, request);
    return this.http.call(endpoint, { body }, data(multiControlResults), options);
  }

  /** Writes one setting on up to 1,000 inverters: serial -> result. Never retried on a server error. */
  async multiControlWrite(
    request: MultiControlWriteRequest,
    options?: CallOptions,
  ): Promise<Record<string, RemoteControlResult<SettingValue>>> {
    const endpoint = inverterControlEndpoints.multiControlWrite;
    const checked = this.http.validate(endpoint, multiWrite, request);
    const body = { ...checked, value: multiControlValue(checked.value) };
    return this.http.call(endpoint, { body }, data(multiControlResults), options);
  }
}

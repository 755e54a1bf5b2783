import type { ChangeRequest, SettingValue } from "../../control/index.js";
import { type Device, deviceName, hasControls } from "../../telemetry/index.js";
import { entitiesFor } from "./catalogue.js";
import { parsePayload } from "./payload.js";
import type { CommandTarget, ControlValues, DeviceDetails, EntityDef } from "./types.js";

export type CommandResult =
  | { readonly ok: true; readonly request: ChangeRequest }
  /** The device's clock to be set now: the clock watch's, not a change request (control/clock-watch.ts). */
  | { readonly ok: true; readonly clockSync: { readonly serial: string } }
  | { readonly ok: false; readonly message: string };

const fail = (message: string): CommandResult => ({ ok: false, message });

/** The device's name with its kind in front where the name alone would not say it. */
function describe(device: Device): string {
  const name = deviceName(device);
  if (device.kind === "ev_charger" && !name.startsWith("EV charger")) return `EV charger ${name}`;
  if (device.kind === "smart_device" && !name.startsWith("Smart device")) return `Smart device ${name}`;
  return name;
}

function unknownEntity(device: Device, key: string, entities: readonly EntityDef[]): CommandResult {
  const controls = entities.filter((entity) => entity.command).map((entity) => entity.key);
  if (controls.length === 0) return fail(`${describe(device)} has no controls; "${key}" cannot be set`);
  const shown = controls.slice(0, 12).join(", ");
  const more = controls.length > 12 ? ` and ${controls.length - 12} more` : "";
  return fail(`${describe(device)} has no control "${key}"; its controls are ${shown}${more}`);
}

function presetRequest(
  device: Device,
  target: Extract<CommandTarget, { kind: "preset" }>,
  value: SettingValue | undefined,
  current: ControlValues | undefined,
): CommandResult {
  if (!hasControls(device)) return fail(`${describe(device)} has no presets`);
  const fields: Record<string, unknown> = {};
  for (const name of target.alsoRequired) {
    const known = current?.presets?.[target.preset]?.[name];
    if (known === undefined || known === null) {
      return fail(
        `${target.preset} needs ${name} with every change, and its current value is not known yet; try again after the next refresh`,
      );
    }
    fields[name] = known;
  }
  if (target.field !== undefined) {
    if (target.slot === undefined) fields[target.field] = value;
    else fields.slots = { [target.slot]: { [target.field]: value } };
  }
  return { ok: true, request: { kind: "preset", serial: device.serial, preset: target.preset, fields } };
}

function evRequest(
  device: Device,
  entity: EntityDef,
  target: Extract<CommandTarget, { kind: "ev-command" }>,
  value: SettingValue | undefined,
): CommandResult {
  if (device.kind !== "ev_charger") return fail(`${describe(device)} is not an EV charger`);
  const none = entity.command?.noneValue !== undefined && value === entity.command.noneValue;
  const request: Record<string, unknown> = target.field !== undefined && !none ? { [target.field]: value } : {};
  return { ok: true, request: { kind: "ev-command", uuid: device.uuid, command: target.command, request } };
}

/**
 * Reads a command published to an entity's command topic and builds the change it asks for.
 * `current` gives the preset fields a preset needs in every request (pause-battery's mode).
 * It only reads the payload: the gate checks the change against the device's own rules (range,
 * options, the command's fields) and records a refusal in the audit log.
 */
export function commandFor(
  device: Device,
  entityKey: string,
  payload: string,
  current?: ControlValues,
  details?: DeviceDetails,
): CommandResult {
  const entities = entitiesFor(device, details);
  const entity = entities.find((one) => one.key === entityKey);
  if (!entity) return unknownEntity(device, entityKey, entities);
  if (!entity.command) return fail(`${entity.name} is a ${entity.component.replace("_", " ")}; it cannot be set`);
  const parsed = parsePayload(entity, payload);
  if (!parsed.ok) return fail(parsed.message);
  const { target } = entity.command;
  switch (target.kind) {
    case "setting":
      if (!hasControls(device)) return fail(`${describe(device)} has no settings`);
      if (parsed.value === undefined) return fail(`${entity.name} has no value to write`);
      return {
        ok: true,
        request: { kind: "setting", serial: device.serial, settingId: target.settingId, value: parsed.value },
      };
    case "preset":
      return presetRequest(device, target, parsed.value, current);
    case "ev-command":
      return evRequest(device, entity, target, parsed.value);
    case "clock-sync":
      if (device.kind !== "inverter" && device.kind !== "ems") return fail(`${describe(device)} has no clock to set`);
      return { ok: true, clockSync: { serial: device.serial } };
  }
}

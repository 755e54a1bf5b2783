import type { ChangeRequest } from "../../control/index.js";
import type { Inventory } from "../../telemetry/index.js";
import type { ChargerCommandId } from "../../vocabulary/index.js";
import { actionKind, chargerCommand } from "../file/action-schema.js";
import { describeAction } from "../file/action-text.js";
import type { Action } from "../file/schema.js";
import { renderTemplates, type TemplateContext } from "../file/templates.js";

/** One action of a rule, templates filled and its device chosen. */
export type Intent =
  | {
      readonly kind: "change";
      readonly text: string;
      readonly request: ChangeRequest;
      /** The control it acts on, for conflicts and restore: `preset:SERIAL:id`, `setting:SERIAL:id`, `charger:UUID:command`. */
      readonly control: string;
    }
  | {
      readonly kind: "notify";
      readonly text: string;
      readonly notification: { platforms: ("persist" | "push")[]; title: string; body: string; icon: string };
    }
  | {
      readonly kind: "snapshot";
      readonly text: string;
      readonly op: "take" | "restore";
      readonly serial: string;
      readonly name: string;
    }
  | { readonly kind: "invalid"; readonly text: string; readonly problem: string };

const SNAPSHOT_NAME_MAX = 32;

/** `e2m-<rule>`, at most 32 characters; a long name is cut and given a short hash to stay unique. */
export function snapshotName(rule: string): string {
  const name = `e2m-${rule}`;
  if (name.length <= SNAPSHOT_NAME_MAX) return name;
  let hash = 0;
  for (const char of rule) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const suffix = hash.toString(36).slice(0, 6);
  return `${name.slice(0, SNAPSHOT_NAME_MAX - suffix.length - 1)}-${suffix}`;
}

/** The inverter an action acts on when it names none: the account's first controllable one. */
export function defaultInverter(inventory: Inventory): string | undefined {
  return (inventory.inverters.find((inverter) => inverter.controllable) ?? inventory.inverters[0])?.serial;
}

/** A setting by id, or by its name as the inverter lists it (case and spacing aside). */
export function settingId(inventory: Inventory, serial: string, setting: number | string): number | undefined {
  if (typeof setting === "number") return setting;
  if (/^\d+$/.test(setting)) return Number(setting);
  const wanted = setting
    .toLowerCase()
    .replace(/[\s_-]+/g, " ")
    .trim();
  const inverter = inventory.inverters.find((found) => found.serial === serial);
  return inverter?.settings.find(
    (found) =>
      found.name
        .toLowerCase()
        .replace(/[\s_-]+/g, " ")
        .trim() === wanted,
  )?.id;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function intentOf(action: Action, context: TemplateContext, rule: string, inventory: Inventory): Intent {
  const text = describeAction(action, context);
  const invalid = (problem: string): Intent => ({ kind: "invalid", text, problem });
  switch (actionKind(action)) {
    case "preset": {
      const serial = action.inverter ?? defaultInverter(inventory);
      if (!serial || !action.preset) return invalid("the account has no inverter");
      const fields = asRecord(renderTemplates(action.with ?? {}, context));
      return {
        kind: "change",
        text,
        control: `preset:${serial}:${action.preset}`,
        request: { kind: "preset", serial, preset: action.preset, fields },
      };
    }
    case "setting": {
      const serial = action.inverter ?? defaultInverter(inventory);
      if (!serial || action.setting === undefined || action.value === undefined)
        return invalid("the account has no inverter");
      const id = settingId(inventory, serial, action.setting);
      if (id === undefined) return invalid(`inverter ${serial} lists no setting named "${action.setting}"`);
      const value = renderTemplates(action.value, context);
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
        return invalid(`the value of setting ${action.setting} rendered empty`);
      return {
        kind: "change",
        text,
        control: `setting:${serial}:${id}`,
        request: { kind: "setting", serial, settingId: id, value },
      };
    }
    case "charger": {
      const uuid = action.uuid ?? inventory.evChargers[0]?.uuid;
      const command: ChargerCommandId | undefined = chargerCommand(action);
      if (!uuid || !command) return invalid("the account has no EV charger");
      return {
        kind: "change",
        text,
        // start and stop act on the same thing: whether the car charges.
        control: `charger:${uuid}:${command === "stop-charge" ? "start-charge" : command}`,
        request: { kind: "ev-command", uuid, command, request: asRecord(renderTemplates(action.with ?? {}, context)) },
      };
    }
    case "notify": {
      const notify = action.notify;
      if (!notify) return invalid("no notification");
      const filled = renderTemplates({ title: notify.title, body: notify.body }, context) as {
        title: string;
        body: string;
      };
      return { kind: "notify", text, notification: { platforms: [...notify.platforms], icon: notify.icon, ...filled } };
    }
    case "snapshot": {
      const serial = action.inverter ?? defaultInverter(inventory);
      if (!serial || !action.snapshot) return invalid("the account has no inverter");
      return { kind: "snapshot", text, op: action.snapshot, serial, name: action.name ?? snapshotName(rule) };
    }
  }
}

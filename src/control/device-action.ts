import type {
  AccountNotification,
  PresetProfileApply,
  PresetProfileRef,
  SmartDevicePoint,
} from "../vocabulary/index.js";
import type { ChargerAction } from "./charger-actions.js";

/**
 * Changes that are not one setting, preset or charger command: the cloud's snapshots and preset
 * profiles of an inverter, notifications to the account, a smart device's data, and what only a
 * charger's own path (OCPP) carries (charger-actions.ts). They change what the account holds (and
 * a restore or a profile applied changes the inverter), so they go through the gate like every
 * other change: checked, one at a time per device, audited.
 */
export type DeviceAction =
  | {
      readonly kind: "snapshot";
      readonly op: "take" | "restore" | "delete";
      readonly serial: string;
      readonly name: string;
    }
  | {
      readonly kind: "preset-profile";
      readonly op: "create" | "update" | "delete";
      readonly serial: string;
      readonly profile: PresetProfileRef;
    }
  | {
      readonly kind: "preset-profile";
      readonly op: "apply";
      readonly serial: string;
      readonly request: PresetProfileApply;
    }
  | { readonly kind: "notification"; readonly notification: AccountNotification }
  | {
      readonly kind: "smart-device-data";
      readonly uuid: string;
      readonly point: SmartDevicePoint;
    }
  | { readonly kind: "charger"; readonly uuid: string; readonly action: ChargerAction };

export interface DeviceActionOutcome {
  readonly ok: boolean;
  /** What happened, in words the requester is answered with. */
  readonly message: string;
  /** True when the request was refused and nothing was sent. */
  readonly refused?: boolean;
  /** The cloud's answer, when there was one. */
  readonly data?: unknown;
  /**
   * Why it failed, where the caller acts on it: the path's failure was `forbidden` (the token may
   * not), `not-found` (the thing named is not there) or `invalid-data` (the request refused, e.g. a
   * snapshot name already taken), or it answered but did not confirm (`success: false`).
   */
  readonly failure?: "forbidden" | "not-found" | "invalid" | "unconfirmed";
}

/** The audit log's target and action for a device action. */
export function actionTarget(action: DeviceAction): { kind: string; id: string; action: string } {
  switch (action.kind) {
    case "snapshot":
      return { kind: "inverter", id: action.serial, action: `snapshot:${action.op}` };
    case "preset-profile":
      return { kind: "inverter", id: action.serial, action: `preset-profile:${action.op}` };
    case "notification":
      return { kind: "account", id: "notifications", action: "notification:send" };
    case "smart-device-data":
      return { kind: "smart_device", id: action.uuid, action: "smart-device:data" };
    case "charger":
      return { kind: "ev_charger", id: action.uuid, action: `charger:${action.action.op}` };
  }
}

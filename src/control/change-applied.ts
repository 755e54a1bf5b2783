import type { ChangeOutcome, ChangeRequest, Requester } from "./change.js";
import type { DeviceAction } from "./device-action.js";

/**
 * A change's outcome, as the control gate recorded it in the audit log: a setting, preset or
 * charger command (`request`), or a device action such as a snapshot restored (`action`).
 */
export type ChangeApplied =
  | {
      readonly at: number;
      readonly request: ChangeRequest;
      readonly action?: undefined;
      readonly requester: Requester;
      readonly outcome: ChangeOutcome;
    }
  | {
      readonly at: number;
      readonly request?: undefined;
      readonly action: DeviceAction;
      readonly requester: Requester;
      /** The action's outcome in a change's words: never verified by a read-back, never skipped. */
      readonly outcome: ChangeOutcome;
    };

/**
 * The device (serial or uuid) whose control values a change may have moved: that of every
 * setting, preset or command, and the inverter of a snapshot restored or a preset profile
 * applied. Undefined for actions that leave the controls as they were (a snapshot taken, a
 * notification).
 */
export function changedDevice(event: ChangeApplied): string | undefined {
  if (event.request) return "serial" in event.request ? event.request.serial : event.request.uuid;
  const { action } = event;
  if (action.kind === "snapshot" && action.op === "restore") return action.serial;
  if (action.kind === "preset-profile" && action.op === "apply") return action.serial;
  return undefined;
}

import type {
  AccountNotification,
  PresetProfileApply,
  PresetProfileRef,
  SmartDevicePoint,
} from "../vocabulary/index.js";
import type { ControlCall } from "./control-ports.js";

/** An answer that says whether the action was done; the rest of it goes to the requester as it came. */
export interface Confirmation {
  readonly success: boolean;
}

/**
 * The device actions only the cloud carries, in the daemon's words: an inverter's snapshots and
 * preset profiles, notifications to the account, a smart device's power readings. Each answer
 * goes back to the requester as the path gave it; a failure is thrown as a PathFailure.
 */
export interface CloudOnlyActions {
  readonly snapshots: {
    take(serial: string, name: string, call?: ControlCall): Promise<Confirmation>;
    restore(serial: string, name: string, call?: ControlCall): Promise<Confirmation>;
    delete(serial: string, name: string, call?: ControlCall): Promise<Confirmation>;
  };
  readonly presetProfiles: {
    apply(serial: string, request: PresetProfileApply, call?: ControlCall): Promise<unknown>;
    create(serial: string, profile: PresetProfileRef, call?: ControlCall): Promise<unknown>;
    update(serial: string, profile: PresetProfileRef, call?: ControlCall): Promise<unknown>;
    delete(serial: string, profile: PresetProfileRef, call?: ControlCall): Promise<unknown>;
  };
  readonly notifications: {
    send(notification: AccountNotification, call?: ControlCall): Promise<Confirmation>;
  };
  readonly smartDevices: {
    addData(uuid: string, point: SmartDevicePoint, call?: ControlCall): Promise<unknown>;
  };
}

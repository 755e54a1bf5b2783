import type { SettingValue } from "./stored-value.js";

/** A single-device read or write answer; on failure `value` is a remote control code (-1..-7). */
export interface ControlAnswer {
  readonly value: SettingValue;
  readonly success: boolean;
  readonly message: string;
}

export const WRITTEN = "Written Successfully";
export const READ = "Read Successfully";

export const TIMEOUT: ControlAnswer = { value: -1, success: false, message: "Inverter Timeout" };
export const OFFLINE: ControlAnswer = { value: -2, success: false, message: "Inverter Offline" };
export const NO_ACCESS: ControlAnswer = {
  value: -3,
  success: false,
  message: "Device does not exist or access denied",
};
export const LOCKED: ControlAnswer = { value: -7, success: false, message: "Inverter Locked" };

export const unknownSetting = (id: number): ControlAnswer => ({
  value: -3,
  success: false,
  message: `Setting ${id} does not exist on this inverter`,
});

export const invalid = (message: string): ControlAnswer => ({ value: -4, success: false, message });

import { z } from "zod";

/*
 * The requests of the device actions only the cloud carries today (an inverter's preset profiles,
 * notifications to the account, a smart device's power readings), as the daemon's bridge takes
 * them and its audit log records them. The path checks them against its own rules before sending.
 */

const profileName = z.string().min(1).max(32);

/** A preset profile: the values a preset holds now, kept under a name. */
export const presetProfileRef = z.strictObject({ name: profileName, preset: z.string().min(1) });
export type PresetProfileRef = z.output<typeof presetProfileRef>;

/** Writes a named profile's values back: all its presets, or those named; then deletes it when asked. */
export const presetProfileApply = z.strictObject({
  name: profileName,
  presets: z.array(z.string()).optional(),
  delete_after_apply: z.boolean().optional(),
});
export type PresetProfileApply = z.output<typeof presetProfileApply>;

/** persist: the notification centre of the vendor's portal and app; push: every logged-in phone. */
export const NOTIFICATION_PLATFORMS = ["persist", "push"] as const;

/** A notification to the account's user. */
export const accountNotification = z.strictObject({
  platforms: z.array(z.enum(NOTIFICATION_PLATFORMS)).min(1),
  title: z.string(),
  body: z.string(),
  icon: z.string(),
});
export type AccountNotification = z.output<typeof accountNotification>;

/** A smart device's power reading (W, whole) at a time. */
export const smartDevicePoint = z.strictObject({ time: z.string(), power: z.number().int() });
export type SmartDevicePoint = z.output<typeof smartDevicePoint>;

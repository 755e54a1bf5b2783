import type { CloudClient, PresetChange, RemoteControlCode, RemoteControlResult } from "../../cloud/index.js";
import { remoteControlResult } from "../../cloud/index.js";
import type { InverterControl, PathOutcome } from "../control-ports.js";
import type { DeviceControl } from "../ports.js";
import { cloudChargerCommands } from "./charger-control.js";
import { cloudActions } from "./device-actions.js";

/** What to do next, per remote control code, for the codes where the user can act. */
const ADVICE: Readonly<Partial<Record<RemoteControlCode, string>>> = {
  [-2]: "try again when it is back online",
  [-7]: "unlock it, then try again",
};

type Failure = Extract<RemoteControlResult, { ok: false }>;

/** A refused read or write in words: the code's meaning and number, the device's own message, and advice. */
function reasonOf(failure: Failure): string {
  const parts = [failure.code === undefined ? failure.reason : `${failure.reason} (code ${failure.code})`];
  if (failure.message && failure.message !== failure.reason) parts.push(failure.message);
  const advice = failure.code === undefined ? undefined : ADVICE[failure.code];
  return advice ? `${parts.join(": ")}; ${advice}` : parts.join(": ");
}

/**
 * A remote control answer as the gate's outcome: a code that may have applied (-1 timeout, -5,
 * -6, a refusal without a code) leaves it open; the others (-2 offline, -3, -4, -7 locked) did not
 * happen. The code goes along for the record.
 */
function outcomeOf<V>(result: RemoteControlResult<V>): PathOutcome<V> {
  if (result.ok)
    return {
      outcome: "done",
      value: result.value,
      ...(result.message === undefined ? {} : { message: result.message }),
    };
  return {
    outcome: result.mayHaveApplied ? "open" : "refused",
    reason: reasonOf(result),
    ...(result.code === undefined ? {} : { code: result.code }),
  };
}

/**
 * Modify Preset answers `{success, message}` without the remote control code a setting write
 * carries in `value`: the device's refusal is only in the message, worded as the setting answers'
 * codes are. This table is that fact of the vendor's API; a message it does not know is a refusal
 * without a code, which may have applied.
 */
const PRESET_MESSAGES: readonly (readonly [RegExp, RemoteControlCode])[] = [
  [/^inverter timeout\b/i, -1],
  [/^inverter offline\b/i, -2],
  [/does not exist or access denied/i, -3],
  [/^inverter locked\b/i, -7],
];

/** A preset's answer read like a setting's: the same codes, the same open or refused. */
function presetOutcome(answer: PresetChange): PathOutcome<undefined> {
  const message = answer.message ?? undefined;
  if (answer.success) return { outcome: "done", value: undefined, ...(message === undefined ? {} : { message }) };
  const code = PRESET_MESSAGES.find(([pattern]) => pattern.test(message ?? ""))?.[1];
  const result = remoteControlResult<RemoteControlCode | undefined>({
    value: code,
    success: false,
    ...(message === undefined ? {} : { message }),
  });
  return result.ok ? { outcome: "done", value: undefined } : outcomeOf<undefined>(result);
}

/** The cloud's Inverter Control section as the daemon's InverterControl. */
export function cloudInverters(client: Pick<CloudClient, "inverterControl">): InverterControl {
  return {
    readSetting: async (serial, settingId, call) =>
      outcomeOf(await client.inverterControl.readSetting(serial, settingId, call)),
    writeSetting: async (serial, settingId, value, call) =>
      outcomeOf(await client.inverterControl.writeSetting(serial, settingId, value, call)),
    readPreset: (serial, preset, call) => client.inverterControl.presetValues(serial, preset, call),
    // force false: the service writes only the settings whose value differs.
    applyPreset: async (serial, preset, fields, call) =>
      presetOutcome(await client.inverterControl.modifyPreset(serial, preset, fields, { ...call, force: false })),
  };
}

/** The cloud as a DeviceControl: its settings, presets and EV charger commands in the daemon's terms, the rest as it is, and its request timeout as the answer's wait. */
export function cloudControl(client: CloudClient): DeviceControl {
  const actions = cloudActions(client);
  return {
    inverters: cloudInverters(client),
    cloudOnly: {
      evChargers: cloudChargerCommands(client),
      snapshots: { exists: (serial, name, call) => client.snapshots.exists(serial, name, call), ...actions.snapshots },
      presetProfiles: {
        list: (serial, filter, call) => client.presetProfiles.list(serial, filter, call),
        ...actions.presetProfiles,
      },
      notifications: actions.notifications,
      smartDevices: actions.smartDevices,
    },
    answerMs: client.http.timeoutMs,
    pathOf: () => "cloud",
  };
}

import type { DeviceControl, HeldValue } from "../sources/index.js";
import type { LocalSnapshots, SnapshotSetting } from "../store/index.js";
import type { ChangeOutcome, SettingValue } from "./change.js";
import { failureText } from "./cloud-failure.js";
import type { ControlReading } from "./control-state.js";
import type { DeviceActionOutcome } from "./device-action.js";
import type { ControlledInverter } from "./devices.js";
import { isWriteOnly } from "./setting-rules.js";

/**
 * The daemon's own snapshots, for a device whose changes go over the LAN (the cloud's snapshots
 * live in the cloud and act through it): every setting the device lists is read and kept in
 * SQLite, and a restore puts each value back through the gate's own setting path, so that it
 * writes only what differs, is audited and counted.
 */
export interface LocalSnapshotDeps {
  readonly control: DeviceControl;
  readonly snapshots: LocalSnapshots;
  readonly signal: AbortSignal;
  readonly now: () => number;
  /** A value read now goes into the gate's record of current values, so an unchanged one is skipped. */
  readonly remember: (reading: ControlReading) => void;
  /** One setting through the gate's own path (read first, skipped when it holds, sent, audited, counted as a restore). */
  readonly applySetting: (settingId: number, value: SettingValue) => Promise<ChangeOutcome>;
}

function isSettingValue(value: HeldValue | undefined): value is SettingValue {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** Reads one setting; the value, or why it could not be read. */
async function readValue(
  deps: LocalSnapshotDeps,
  serial: string,
  settingId: number,
): Promise<{ value: SettingValue } | { problem: string }> {
  try {
    const read = await deps.control.inverters.readSetting(serial, settingId, {
      priority: "command",
      signal: deps.signal,
    });
    if (read.outcome !== "done") return { problem: read.reason };
    return isSettingValue(read.value) ? { value: read.value } : { problem: `it reads as ${String(read.value)}` };
  } catch (error) {
    return { problem: failureText(error) };
  }
}

export async function takeLocalSnapshot(
  deps: LocalSnapshotDeps,
  inverter: ControlledInverter,
  name: string,
): Promise<DeviceActionOutcome> {
  const { serial } = inverter;
  if (deps.snapshots.get(serial, name))
    return { ok: false, failure: "invalid", message: `inverter ${serial} already has a snapshot named ${name}` };
  const readable = inverter.settings.filter((setting) => !isWriteOnly(setting));
  if (readable.length === 0)
    return {
      ok: false,
      message: `the settings of inverter ${serial} could not be read yet, so there is nothing to snapshot: try again later`,
    };
  const settings: SnapshotSetting[] = [];
  const unread: string[] = [];
  for (const setting of readable) {
    const read = await readValue(deps, serial, setting.id);
    if ("value" in read) {
      settings.push({ settingId: setting.id, name: setting.name, value: read.value });
      deps.remember({ kind: "setting", serial, settingId: setting.id, value: read.value });
    } else unread.push(`${setting.name} (${read.problem})`);
  }
  if (settings.length === 0)
    return { ok: false, message: `snapshot ${name} not taken: no setting of inverter ${serial} could be read` };
  deps.snapshots.add({ serial, name, takenAt: deps.now(), settings });
  const data = { settings: settings.length, unread };
  return unread.length === 0
    ? { ok: true, message: `snapshot ${name} taken (${settings.length} settings, kept by energy2mqtt)`, data }
    : {
        ok: true,
        message: `snapshot ${name} taken (${settings.length} settings, kept by energy2mqtt); not read, so not in it: ${unread.join(", ")}`,
        data,
      };
}

/**
 * Puts each saved value back. Like the cloud's restore, a snapshot fully restored is deleted;
 * one that is not stays, so that the restore can be tried again.
 */
export async function restoreLocalSnapshot(
  deps: LocalSnapshotDeps,
  inverter: ControlledInverter,
  name: string,
): Promise<DeviceActionOutcome> {
  const { serial } = inverter;
  const snapshot = deps.snapshots.get(serial, name);
  if (!snapshot)
    return { ok: false, failure: "not-found", message: `inverter ${serial} has no snapshot named ${name}` };
  const restored: string[] = [];
  const unchanged: string[] = [];
  const failedOnes: { name: string; message: string }[] = [];
  for (const saved of snapshot.settings) {
    if (deps.signal.aborted) {
      failedOnes.push({ name: saved.name, message: "cancelled before it was sent" });
      continue;
    }
    // The gate reads the value first over the LAN, and skips it when it holds.
    const outcome = await deps.applySetting(saved.settingId, saved.value);
    if (outcome.ok) (outcome.skipped ? unchanged : restored).push(saved.name);
    else failedOnes.push({ name: saved.name, message: outcome.message });
  }
  const data = { restored, unchanged, failed: failedOnes };
  const counts = `${restored.length} restored${restored.length > 0 ? ` (${restored.join(", ")})` : ""}, ${unchanged.length} unchanged`;
  if (failedOnes.length > 0)
    return {
      ok: false,
      failure: "unconfirmed",
      message: `snapshot ${name} not fully restored: ${counts}, ${failedOnes.length} failed (${failedOnes.map((one) => `${one.name}: ${one.message}`).join("; ")}); it is kept`,
      data,
    };
  deps.snapshots.delete(serial, name);
  return { ok: true, message: `snapshot ${name} restored: ${counts}`, data };
}

export function deleteLocalSnapshot(snapshots: LocalSnapshots, serial: string, name: string): DeviceActionOutcome {
  return snapshots.delete(serial, name)
    ? { ok: true, message: `snapshot ${name} deleted` }
    : { ok: false, failure: "not-found", message: `inverter ${serial} has no snapshot named ${name}` };
}

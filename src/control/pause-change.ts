import type { ChangeOutcome } from "./change.js";
import type { ControlledInverter } from "./devices.js";
import { failed, refused, skipped, succeeded } from "./outcome.js";
import {
  CHARGE_LIMIT,
  DISCHARGE_LIMIT,
  enforcePause,
  type HeldPause,
  heldPause,
  keepHeldPause,
  type PauseDeps,
  type PauseMode,
  shownPause,
} from "./pause-emulation.js";
import { findPreset, presetProblems } from "./preset-rules.js";
import { presetToSteps } from "./steps.js";

/** GivTCP's time selects send "HH:MM:00"; the slot is held as "HH:mm". */
const asTime = (value: unknown): unknown =>
  typeof value === "string" && /^\d\d:\d\d:00$/.test(value) ? value.slice(0, 5) : value;

/** The pause as the device shows it now: the mode held, and a limit read at 0 as that side paused. */
export async function pauseValues(deps: PauseDeps, serial: string): Promise<Record<string, unknown>> {
  const atZero = async (id: number) => {
    const read = await deps.control.inverters.readSetting(serial, id, { priority: "command", signal: deps.signal });
    return read.outcome === "done" && read.value === 0;
  };
  const limitsMode = ((await atZero(CHARGE_LIMIT)) ? 1 : 0) + ((await atZero(DISCHARGE_LIMIT)) ? 2 : 0);
  return shownPause(heldPause(deps.snapshots, serial), limitsMode);
}

/**
 * A change of Pause Battery on a device whose pause the daemon holds: checked against the listed
 * preset, the mode and slot kept in the store, and the limits put where the pause wants them now,
 * each through the gate's setting path (audited, counted, skipped when it holds).
 */
export async function changeHeldPause(
  deps: PauseDeps,
  inverter: ControlledInverter,
  reference: string,
  requested: Readonly<Record<string, unknown>>,
): Promise<ChangeOutcome> {
  const descriptor = findPreset(inverter.presets, reference);
  if (!descriptor) return refused(`inverter ${inverter.serial} does not list preset ${reference} yet: try again later`);
  const trimmed = { ...requested };
  for (const key of ["start_time", "end_time"]) if (key in trimmed) trimmed[key] = asTime(trimmed[key]);
  const fields = presetToSteps(descriptor, trimmed);
  const problems = presetProblems(descriptor, fields);
  if (problems) return refused(problems);
  const before = heldPause(deps.snapshots, inverter.serial);
  const next: HeldPause = {
    mode: fields.mode === undefined || fields.mode === null ? before.mode : (Number(fields.mode) as PauseMode),
    start: typeof fields.start_time === "string" ? fields.start_time : before.start,
    end: typeof fields.end_time === "string" ? fields.end_time : before.end,
  };
  const same = next.mode === before.mode && next.start === before.start && next.end === before.end;
  if (!same) keepHeldPause(deps.snapshots, inverter.serial, next, deps.now());
  const enforced = await enforcePause(deps, inverter);
  const values = await pauseValues(deps, inverter.serial);
  if (!enforced.ok) return failed(`Pause Battery kept by energy2mqtt, but ${enforced.message}`, { value: values });
  if (same) return skipped(`Pause Battery already holds these values (${enforced.message})`, values);
  return succeeded(`Pause Battery applied, held by energy2mqtt: ${enforced.message}`, {
    verified: true,
    value: values,
  });
}

import { createInterface } from "node:readline/promises";
import {
  type BackupFile,
  describeLine,
  planRestore,
  type RestorePlan,
  readBackupFile,
  runRestore,
} from "../control/index.js";
import type { ControllableDevice } from "../sources/index.js";
import { type Clock, systemClock } from "../time/index.js";
import { type SettingsHouse, withSettingsHouse } from "./settings-house.js";

export interface SettingsRestoreOptions {
  readonly file: string;
  readonly config?: string | undefined;
  /** Only this device of the file. */
  readonly device?: string | undefined;
  /** Write without asking. */
  readonly yes?: boolean | undefined;
}

/** Where the command talks: its output, and the terminal it asks on (none: it cannot ask). */
export interface RestoreTerminal {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  /** The terminal to ask on; undefined when stdin is not one. */
  readonly ask?: NodeJS.ReadableStream | undefined;
  readonly clock?: Clock;
}

const processTerminal = (): RestoreTerminal => ({
  out: process.stdout,
  err: process.stderr,
  ask: process.stdin.isTTY ? process.stdin : undefined,
});

/**
 * `energy2mqtt settings restore FILE`: the file's settings against each device's now, the
 * differences shown, and after a yes (or --yes) the allowlisted ones that differ written through
 * the control gate, one at a time, each read back and audited as `settings-restore`. What cannot be
 * written is listed with the reason and never sent. 0 done or nothing to do, 1 a write failed or
 * the house (or one of the file's settings on it) could not be read, 2 a bad file, configuration or device, or not confirmed.
 */
export async function runSettingsRestoreCommand(
  options: SettingsRestoreOptions,
  terminal: RestoreTerminal = processTerminal(),
): Promise<number> {
  const { err } = terminal;
  const clock = terminal.clock ?? systemClock;
  const read = readBackupFile(options.file);
  if ("problems" in read) {
    err.write(
      `${options.file} is not a backup this can restore; fix:\n${read.problems.map((p) => `  ${p}`).join("\n")}\n`,
    );
    return 2;
  }
  const wanted = wantedDevices(read.backup, options.device);
  if (typeof wanted === "string") {
    err.write(`${wanted}\n`);
    return 2;
  }
  const opened = {
    config: options.config,
    storeRefusal: "the audit log cannot be opened, so nothing can be written: ",
  };
  return withSettingsHouse(opened, err, clock, (house) =>
    restore(house, read.backup, wanted, read.locate, options, terminal),
  );
}

async function restore(
  house: SettingsHouse,
  backup: BackupFile,
  wanted: readonly number[],
  locate: (field: readonly PropertyKey[]) => string,
  options: SettingsRestoreOptions,
  terminal: RestoreTerminal,
): Promise<number> {
  const { out, err } = terminal;
  const plans: RestorePlan[] = [];
  for (const index of wanted) {
    const entry = backup.devices[index];
    if (!entry) continue;
    const device = deviceOf(house, entry.serial);
    if (!device) {
      const known = house.withSettings.map((one) => one.serial).join(", ") || "none";
      err.write(
        `${locate(["devices", index, "serial"])}: devices.${index}.serial: ${entry.serial} is not a device of this house (it has: ${known}); a backup is restored only to the device it was taken from, nothing was written\n`,
      );
      return 2;
    }
    plans.push(await planRestore(house.control, device, entry));
  }
  out.write(`the backup of ${backup.taken_at} against the devices now:\n`);
  for (const plan of plans) out.write(describePlan(house, plan));
  const writes = plans.reduce((sum, plan) => sum + plan.lines.filter((line) => line.kind === "write").length, 0);
  const unread = plans.some((plan) => plan.lines.some((line) => line.kind === "unread"));
  if (writes === 0) {
    if (unread) {
      err.write(
        "nothing written, and some settings could not be read: run the restore again once the device answers\n",
      );
      return 1;
    }
    out.write("nothing to write: every setting that can be written already holds the file's value\n");
    return 0;
  }
  const confirmed = options.yes === true || (await confirm(terminal, writes));
  if (!confirmed) {
    err.write(
      terminal.ask === undefined
        ? `nothing written: there is no terminal to ask on, so add --yes to write ${settingsWord(writes)}\n`
        : "nothing written\n",
    );
    return 2;
  }
  let failed = 0;
  for (const plan of plans) {
    for (const { line, outcome } of await runRestore(house.gate, plan)) {
      if (!outcome.ok) failed++;
      const how = outcome.ok ? (outcome.verified ? "written, read back" : "written") : "not written";
      out.write(`${plan.serial} ${line.id} ${line.name}: ${how}: ${outcome.message}\n`);
    }
  }
  if (unread)
    err.write("some settings could not be read and were not compared: run the restore again once the device answers\n");
  return failed > 0 || unread ? 1 : 0;
}

function describePlan(house: SettingsHouse, plan: RestorePlan): string {
  const path = house.control.pathOf(plan.serial) === "local" ? "the LAN" : "the cloud";
  const writes = plan.lines.filter((line) => line.kind === "write");
  const cannot = plan.lines.filter((line) => line.kind === "cannot");
  const unread = plan.lines.filter((line) => line.kind === "unread");
  const same = plan.lines.filter((line) => line.kind === "same").length;
  const parts = [`${plan.serial} (over ${path}):`];
  if (writes.length > 0) parts.push(" to write (setting: file value, device value):", ...writes.map(describeLine));
  if (cannot.length > 0) parts.push(" cannot be written, never sent:", ...cannot.map(describeLine));
  if (unread.length > 0)
    parts.push(" could not be read now, so not compared and never sent:", ...unread.map(describeLine));
  parts.push(` ${settingsWord(same)} already as in the file`);
  return `${parts.join("\n")}\n`;
}

async function confirm(terminal: RestoreTerminal, writes: number): Promise<boolean> {
  if (terminal.ask === undefined) return false;
  const prompt = createInterface({ input: terminal.ask, output: terminal.err, terminal: false });
  try {
    const answer = await prompt.question(`write ${settingsWord(writes)}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

/** The file's devices to restore, by index; only --device's when given, which the file must hold. */
function wantedDevices(backup: BackupFile, only: string | undefined): number[] | string {
  const all = backup.devices.map((_, index) => index);
  if (only === undefined) return all;
  const index = backup.devices.findIndex((device) => device.serial.toLowerCase() === only.toLowerCase());
  if (index >= 0) return [index];
  const held = backup.devices.map((device) => device.serial).join(", ") || "none";
  return `the file holds no backup of ${only} (it holds: ${held}); a backup is restored only to the device it was taken from`;
}

function deviceOf(house: SettingsHouse, serial: string): ControllableDevice | undefined {
  return house.withSettings.find((device) => device.serial === serial);
}

const settingsWord = (count: number): string => `${count} setting${count === 1 ? "" : "s"}`;

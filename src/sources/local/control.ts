import type { CallOptions, PresetChange, RemoteControlResult, SettingValue } from "../../cloud/index.js";
import { booleanValue, checkValue, numericValue } from "../../cloud/index.js";
import {
  type ControlMap,
  ControlMapError,
  controlMapOf,
  decodeSetting,
  encodeSetting,
  type MappedRegister,
  nameOf,
  type Read,
  SessionError,
} from "../../local/index.js";
import type { AccountReads, ControlReads, DeviceControl } from "../ports.js";
import type { LocalDongle } from "./dongle.js";
import { type ControlKey, lanPreset, type PresetWrite, type Value } from "./lan-presets.js";
import { CONTROLLER } from "./reads.js";

/** A request the LAN cannot carry: what only the cloud has, or a device the LAN does not reach. */
export class LocalControlError extends Error {
  override readonly name = "LocalControlError";
}

export interface LocalControlOptions {
  /** The dongle a controller serial answers on (after discovery). */
  readonly dongleOf: (serial: string) => LocalDongle | undefined;
  /** How long the gate waits for an answer: a write's echo (the write is sent once only), and its read-back. */
  readonly answerMs: number;
}

const onlyCloud = (what: string) => async (): Promise<never> => {
  throw new LocalControlError(`only the cloud has ${what}: configure cloud: to use them`);
};

const SNAPSHOTS_NOT_HERE = async (): Promise<never> => {
  throw new LocalControlError(
    "the cloud's snapshots are not reachable over the LAN: the daemon keeps its own snapshots of the registers it changes",
  );
};

/** How long a block of holding registers read for one setting answers for the others in it. */
const BLOCK_FRESH_MS = 2_000;

type Failure = Extract<RemoteControlResult<SettingValue>, { ok: false }>;

const failure = (code: Failure["code"], reason: string, mayHaveApplied: boolean): Failure => ({
  ok: false,
  code,
  reason,
  mayHaveApplied,
  message: reason,
});

/** What a LAN error means in the cloud's codes: a timeout or another echo may have applied; a refusal did not. */
function failureOf(error: unknown, writing: boolean): Failure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ControlMapError) return failure(-4, message, false);
  if (error instanceof SessionError) {
    switch (error.kind) {
      case "timeout":
        return failure(-1, message, writing);
      case "echo":
        return failure(undefined, message, true);
      case "refused":
        return failure(undefined, message, false);
      case "connection":
        // A write whose connection dropped after it was sent may have arrived; one never sent did not.
        return failure(-2, message, writing && !error.unsent);
    }
  }
  return failure(-2, message, false);
}

/** Holding registers read in 60-register blocks, the reads the inverters answer (HR 0-59, 60-119, ...). */
async function readRegisters(
  dongle: LocalDongle,
  registers: readonly number[],
  signal?: AbortSignal,
): Promise<Map<number, number>> {
  const words = new Map<number, number>();
  for (const { first, last, wanted } of holdingBlocks(registers)) {
    const values = await dongle.readHolding(first, last - first + 1, signal);
    for (const register of wanted) words.set(register, values[register - first] ?? 0);
  }
  return words;
}

/** The registers grouped by the 60-register block each is in, each group read from its first to its last. */
function holdingBlocks(registers: readonly number[]): { first: number; last: number; wanted: number[] }[] {
  const byBlock = new Map<number, number[]>();
  for (const register of new Set(registers)) {
    const block = Math.floor(register / 60) * 60;
    byBlock.set(block, [...(byBlock.get(block) ?? []), register]);
  }
  return [...byBlock.values()].map((wanted) => ({ first: Math.min(...wanted), last: Math.max(...wanted), wanted }));
}

/** The holding reads that the settings and preset fields of a model take (what `check` asks once). */
export function settingsReads(map: ControlMap): Read[] {
  return holdingBlocks([...map.allowlist]).map(({ first, last }) => ({
    address: CONTROLLER,
    function: 3,
    base: first,
    count: last - first + 1,
  }));
}

/** The value, as the model's rules take it, as the register's word; throws a ControlMapError saying what to fix. */
function wordOf(entry: MappedRegister, value: Value): number {
  const check = checkValue(value, entry.rules);
  if (!check.ok) throw new ControlMapError(`${nameOf(entry)} ${check.problems.join("; ")}`);
  const taken =
    entry.codec === "bool" ? booleanValue(value) : entry.codec === "number" ? numericValue(value) : String(value);
  if (taken === undefined) throw new ControlMapError(`${nameOf(entry)} cannot hold ${JSON.stringify(value)}`);
  return encodeSetting(entry, taken);
}

/** The register a setting ID or preset field maps to on this model, if any. */
function mappedOf(map: ControlMap, key: ControlKey): MappedRegister | undefined {
  return typeof key === "number" ? map.settings.get(key) : map.presetFields.get(key);
}

const keyOf = (entry: MappedRegister): ControlKey => ("settingId" in entry ? entry.settingId : entry.key);

/**
 * The LAN as a DeviceControl: settings and the presets the daemon uses, read and written as
 * holding registers through each inverter's dongle (src/local/registers/controls.ts maps them),
 * answering in the cloud's result shapes so that the gate's read-back and audit work unchanged.
 * What only the cloud has (EV chargers, notifications, smart devices, preset profiles, its
 * snapshots) is refused with a clear error, and nothing is sent.
 */
export function localControl(options: LocalControlOptions): DeviceControl & ControlReads & AccountReads {
  const target = (serial: string): { dongle: LocalDongle; map: ControlMap } => {
    const dongle = options.dongleOf(serial);
    const detected = dongle?.model;
    if (!dongle || !detected)
      throw new LocalControlError(
        `no dongle configured under local: answers for ${serial}: its settings cannot be reached over the LAN`,
      );
    return { dongle, map: controlMapOf(detected) };
  };
  const entryOf = (map: ControlMap, serial: string, key: ControlKey): MappedRegister => {
    const entry = mappedOf(map, key);
    if (!entry)
      throw new ControlMapError(
        `${typeof key === "number" ? `setting ${key}` : `preset field ${key}`} has no register on the ${map.model} ${serial}: it is not offered over the LAN`,
      );
    return entry;
  };

  /** Every offered setting or preset field among `ids`, read in as few requests as their registers allow. */
  const readSettings = async (
    dongle: LocalDongle,
    map: ControlMap,
    ids: readonly ControlKey[],
    signal?: AbortSignal,
  ): Promise<Map<ControlKey, Value>> => {
    const entries = ids.flatMap((id) => {
      const entry = mappedOf(map, id);
      return entry ? [entry] : [];
    });
    const words = await readRegisters(
      dongle,
      entries.map((entry) => entry.register),
      signal,
    );
    return new Map(entries.map((entry) => [keyOf(entry), decodeSetting(entry, words.get(entry.register) ?? 0)]));
  };

  /**
   * Settings read one after another (a snapshot reads every one the device lists) would cost a
   * paced request each: a read fetches the registers of its whole block the map uses, kept for
   * BLOCK_FRESH_MS, and any write to the dongle drops what is kept.
   */
  const blocks = new Map<LocalDongle, Map<number, { readAt: number; words: Map<number, number> }>>();
  const forget = (dongle: LocalDongle): void => {
    blocks.delete(dongle);
  };
  const wordAt = async (dongle: LocalDongle, map: ControlMap, register: number, signal?: AbortSignal) => {
    const block = Math.floor(register / 60);
    const kept = blocks.get(dongle)?.get(block);
    if (kept && dongle.now() - kept.readAt <= BLOCK_FRESH_MS && kept.words.has(register))
      return kept.words.get(register) ?? 0;
    const registers = [...map.settings.values()]
      .map((entry) => entry.register)
      .filter((other) => Math.floor(other / 60) === block);
    const words = await readRegisters(dongle, registers.length > 0 ? registers : [register], signal);
    const byBlock = blocks.get(dongle) ?? new Map();
    byBlock.set(block, { readAt: dongle.now(), words });
    blocks.set(dongle, byBlock);
    return words.get(register) ?? 0;
  };

  const readSetting = async (
    serial: string,
    id: number,
    call: CallOptions = {},
  ): Promise<RemoteControlResult<SettingValue>> => {
    try {
      const { dongle, map } = target(serial);
      const entry = entryOf(map, serial, id);
      const word = await wordAt(dongle, map, entry.register, call.signal);
      return { ok: true, value: decodeSetting(entry, word), message: "Read Successfully" };
    } catch (error) {
      return failureOf(error, false);
    }
  };

  const writeSetting = async (
    serial: string,
    id: number,
    value: string | number | boolean,
    call: CallOptions = {},
  ): Promise<RemoteControlResult<SettingValue>> => {
    try {
      const { dongle, map } = target(serial);
      const entry = entryOf(map, serial, id);
      const word = wordOf(entry, value);
      forget(dongle);
      await dongle.writeHolding(map, entry.register, word, call.signal);
      return { ok: true, value: decodeSetting(entry, word), message: "Written Successfully" };
    } catch (error) {
      return failureOf(error, true);
    }
  };

  const presetValues = async (
    serial: string,
    identifier: string,
    call: CallOptions = {},
  ): Promise<Record<string, unknown>> => {
    const { dongle, map } = target(serial);
    const preset = lanPreset(identifier);
    if (!preset?.descriptor(map))
      throw new LocalControlError(`preset ${identifier} is not offered over the LAN on the ${map.model} ${serial}`);
    const values = await readSettings(dongle, map, preset.settingIds(map), call.signal);
    return preset.values(map, (id) => values.get(id));
  };

  /** force false writes only the settings whose value differs (the gate's rule); otherwise every one the body names. */
  const modifyPreset = async (
    serial: string,
    reference: string | number,
    fields: Readonly<Record<string, unknown>>,
    call: CallOptions & { readonly force?: boolean } = {},
  ): Promise<PresetChange> => {
    const { dongle, map } = target(serial);
    const preset = lanPreset(String(reference));
    if (!preset?.descriptor(map))
      throw new LocalControlError(`preset ${reference} is not offered over the LAN on the ${map.model} ${serial}`);
    const plan = preset.plan(map, fields);
    if ("error" in plan) return { success: false, message: plan.error, notSent: true };
    const current =
      call.force === false
        ? await readSettings(
            dongle,
            map,
            plan.writes.map((write) => write.id),
            call.signal,
          )
        : new Map<ControlKey, Value>();
    let written = 0;
    for (const write of plan.writes) {
      const outcome = await writeOne(dongle, map, serial, write, current, call.signal);
      if (outcome === "skipped") continue;
      if (outcome !== "written")
        return {
          success: false,
          message: `${outcome}${written > 0 ? ` (${written} setting${written === 1 ? "" : "s"} before it were written)` : ""}`,
        };
      written++;
    }
    return { success: true, message: "Preset applied successfully" };
  };

  const writeOne = async (
    dongle: LocalDongle,
    map: ControlMap,
    serial: string,
    write: PresetWrite,
    current: Map<ControlKey, Value>,
    signal?: AbortSignal,
  ): Promise<"written" | "skipped" | string> => {
    try {
      const entry = entryOf(map, serial, write.id);
      const word = wordOf(entry, write.value);
      const held = current.get(write.id);
      if (held !== undefined && encodeSetting(entry, held) === word) return "skipped";
      forget(dongle);
      await dongle.writeHolding(map, entry.register, word, signal);
      current.set(write.id, decodeSetting(entry, word));
      return "written";
    } catch (error) {
      return failureOf(error, true).reason;
    }
  };

  return {
    inverterControl: { readSetting, writeSetting, presetValues, modifyPreset },
    evChargers: {
      commandData: onlyCloud("EV chargers"),
      get: onlyCloud("EV chargers"),
      sendCommand: onlyCloud("EV chargers"),
    },
    snapshots: {
      take: SNAPSHOTS_NOT_HERE,
      restore: SNAPSHOTS_NOT_HERE,
      delete: SNAPSHOTS_NOT_HERE,
      exists: SNAPSHOTS_NOT_HERE,
    },
    presetProfiles: {
      apply: onlyCloud("preset profiles"),
      create: onlyCloud("preset profiles"),
      update: onlyCloud("preset profiles"),
      delete: onlyCloud("preset profiles"),
      list: onlyCloud("preset profiles"),
    },
    notifications: { send: onlyCloud("notifications") },
    smartDevices: { addData: onlyCloud("smart devices") },
    answerMs: options.answerMs,
    pathOf: () => "local",
  };
}

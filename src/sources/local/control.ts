import {
  type ControlMap,
  ControlMapError,
  decodeSetting,
  encodeSetting,
  type MappedRegister,
  nameOf,
  type Read,
  SessionError,
} from "../../local/index.js";
import { booleanValue, checkValue, numericValue } from "../../validation/index.js";
import type {
  ControlCall,
  HeldValue,
  PathOutcome,
  ControlKey as PortControlKey,
  PresetFields,
} from "../control-ports.js";
import { type CloudOnlyKind, type DeviceControl, withoutCloud } from "../ports.js";
import { lanControlMap } from "./control-map.js";
import type { LocalDongle } from "./dongle.js";
import { type ControlKey, lanPreset, type Value } from "./lan-presets.js";
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

/** What only the cloud has, refused over the LAN with what to do instead. */
const onlyCloud = (what: CloudOnlyKind): LocalControlError =>
  new LocalControlError(
    what === "snapshots"
      ? "the cloud's snapshots are not reachable over the LAN: the daemon keeps its own snapshots of the registers it changes"
      : `only the cloud has ${what}: configure cloud: to use them`,
  );

/** How long a block of holding registers read for one setting answers for the others in it. */
const BLOCK_FRESH_MS = 2_000;

type Failure = Extract<PathOutcome<never>, { outcome: "refused" | "open" }>;

const refused = (reason: string): Failure => ({ outcome: "refused", reason });
const open = (reason: string): Failure => ({ outcome: "open", reason });

/** When the dongle could not be reached: what to do about it. */
const UNREACHABLE_ADVICE = "try again when it is back online";

/**
 * What a LAN error means for a request: a write that timed out, or whose echo was another's or
 * damaged, or whose connection dropped after it left, may have applied (open); a value the map
 * refuses, a request the device refused, or one never sent did not (refused).
 */
function failureOf(error: unknown, writing: boolean): Failure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ControlMapError) return refused(message);
  if (error instanceof SessionError) {
    switch (error.kind) {
      case "timeout":
        return writing ? open(message) : refused(message);
      case "echo":
        return open(message);
      case "refused":
        return refused(message);
      case "connection":
        // A write whose connection dropped after it was sent may have arrived; one never sent did not.
        return writing && !error.unsent ? open(message) : refused(`${message}; ${UNREACHABLE_ADVICE}`);
    }
  }
  return refused(`${message}; ${UNREACHABLE_ADVICE}`);
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
    entry.codec === "bool"
      ? booleanValue(value)
      : entry.codec === "number" || entry.codec === "c-rate" || entry.codec === "power-rate"
        ? numericValue(value)
        : String(value);
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
 * answered in the daemon's outcomes: done, refused (nothing sent, or the dongle refused it) or
 * open (sent, and it may have applied). What only the cloud has (EV chargers, notifications,
 * smart devices, preset profiles, its snapshots) is refused with a clear error, and nothing is
 * sent.
 */
export function localControl(options: LocalControlOptions): DeviceControl {
  const target = (serial: string): { dongle: LocalDongle; map: ControlMap } => {
    const dongle = options.dongleOf(serial);
    const detected = dongle?.model;
    if (!dongle || !detected)
      throw new LocalControlError(
        `no dongle configured under local: answers for ${serial}: its settings cannot be reached over the LAN`,
      );
    return { dongle, map: lanControlMap(detected, dongle.devices()) };
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

  const readSetting = async (serial: string, id: number, call: ControlCall = {}): Promise<PathOutcome<HeldValue>> => {
    try {
      const { dongle, map } = target(serial);
      const entry = entryOf(map, serial, id);
      const word = await wordAt(dongle, map, entry.register, call.signal);
      return { outcome: "done", value: decodeSetting(entry, word) };
    } catch (error) {
      return failureOf(error, false);
    }
  };

  const writeSetting = async (
    serial: string,
    id: number,
    value: string | number | boolean,
    call: ControlCall = {},
  ): Promise<PathOutcome<HeldValue>> => {
    try {
      const { dongle, map } = target(serial);
      const entry = entryOf(map, serial, id);
      const word = wordOf(entry, value);
      forget(dongle);
      await dongle.writeHolding(map, entry.register, word, call.signal);
      return { outcome: "done", value: decodeSetting(entry, word) };
    } catch (error) {
      return failureOf(error, true);
    }
  };

  const readPreset = async (serial: string, identifier: string, call: ControlCall = {}): Promise<PresetFields> => {
    const { dongle, map } = target(serial);
    const preset = lanPreset(identifier);
    if (!preset?.descriptor(map))
      throw new LocalControlError(`preset ${identifier} is not offered over the LAN on the ${map.model} ${serial}`);
    const values = await readSettings(dongle, map, preset.settingIds(map), call.signal);
    return preset.values(map, (id) => values.get(id));
  };

  /**
   * The preset's fields as register writes, each sent only when the register holds another value
   * (read first: a read is cheap, a write wears the device's memory). Refused when nothing was
   * sent (the plan or the first write refused, the values not read); open once a write may have
   * reached the device and a later one failed.
   */
  const applyPreset = async (
    serial: string,
    reference: string | number,
    fields: PresetFields,
    call: ControlCall = {},
  ): Promise<PathOutcome<undefined>> => {
    let written = 0;
    try {
      const { dongle, map } = target(serial);
      const preset = lanPreset(String(reference));
      if (!preset?.descriptor(map))
        return refused(`preset ${reference} is not offered over the LAN on the ${map.model} ${serial}`);
      const plan = preset.plan(map, fields);
      if ("error" in plan) return refused(plan.error);
      let current: Map<ControlKey, Value>;
      try {
        current = await readSettings(
          dongle,
          map,
          plan.writes.map((write) => write.id),
          call.signal,
        );
      } catch (error) {
        return failureOf(error, false);
      }
      for (const write of plan.writes) {
        const entry = entryOf(map, serial, write.id);
        const word = wordOf(entry, write.value);
        const held = current.get(write.id);
        if (held !== undefined && encodeSetting(entry, held) === word) continue;
        forget(dongle);
        await dongle.writeHolding(map, entry.register, word, call.signal);
        current.set(write.id, decodeSetting(entry, word));
        written++;
      }
      return { outcome: "done", value: undefined, message: "Preset applied successfully" };
    } catch (error) {
      const failure = failureOf(error, true);
      if (written === 0) return failure;
      // Some of the preset was written before this failure: only reading back tells what holds.
      return open(`${failure.reason} (${written} setting${written === 1 ? "" : "s"} before it were written)`);
    }
  };

  /** A setting with a register on the device's model, or a preset the model has every register of; undefined before the model is read. */
  const carries = (serial: string, control: PortControlKey): boolean | undefined => {
    const dongle = options.dongleOf(serial);
    const detected = dongle?.model;
    if (!dongle || !detected) return undefined;
    const map = lanControlMap(detected, dongle.devices());
    if ("setting" in control) return map.settings.has(control.setting);
    return lanPreset(String(control.preset))?.descriptor(map) !== undefined;
  };

  return {
    inverters: { readSetting, writeSetting, readPreset, applyPreset, carries },
    cloudOnly: withoutCloud(onlyCloud),
    answerMs: options.answerMs,
    pathOf: () => "local",
  };
}

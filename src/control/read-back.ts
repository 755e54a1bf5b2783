import type { Logger } from "../log/log.js";
import type { ControlReads, HeldValue } from "../sources/index.js";
import {
  type ChargerCommandId,
  type ChargerReadings,
  isReadableChargerCommand,
  type PresetDescriptor,
  READABLE_CHARGER_COMMANDS,
  type ReadableChargerCommand,
  type SettingDescriptor,
} from "../vocabulary/index.js";
import type { ChangeOutcome, ChangeRequest } from "./change.js";
import type { ChangeApplied } from "./change-applied.js";
import type { ControlReading, ControlValues } from "./control-state.js";
import type { ControlDevices } from "./devices.js";
import type { ControlGate } from "./gate.js";
import { mirrorLinked } from "./linked-values.js";

/** A device whose controls are read: an inverter or EMS by its listings, or an EV charger by its commands. */
export type ControlTarget =
  | {
      readonly kind: "inverter";
      readonly serial: string;
      readonly settings: readonly SettingDescriptor[];
      readonly presets: readonly PresetDescriptor[];
    }
  | { readonly kind: "ev_charger"; readonly uuid: string; readonly commands: readonly ChargerCommandId[] };

/** Where the values read go: the control gate's one record of them, which Home Assistant shows. */
export type ControlRecord = Pick<ControlGate, "remember" | "controlValues">;

/**
 * The devices' control values as read, not assumed: every one read once in the background at
 * start; after a change, only what its outcome leaves open (the gate has already read back what
 * it wrote), and the other side of a preset and its settings taken from what was written.
 */
export class ControlReadBack {
  constructor(
    private readonly reads: ControlReads,
    private readonly record: ControlRecord,
    private readonly devices: ControlDevices,
    private readonly logger: Logger,
  ) {}

  /** The device's current control values (serial or uuid). */
  values(device: string): ControlValues {
    return this.record.controlValues(device);
  }

  /** Reads every control value of a device; failures leave that value unknown. */
  async load(target: ControlTarget, signal?: AbortSignal): Promise<void> {
    const options = { priority: "background" as const, ...(signal ? { signal } : {}) };
    if (target.kind === "ev_charger") {
      for (const command of READABLE_CHARGER_COMMANDS) {
        if (!target.commands.includes(command)) continue;
        await this.quietly({ device: target.uuid, command }, async () =>
          this.record.remember(evReading(target.uuid, command, await this.evData(target.uuid, command, options))),
        );
      }
      return;
    }
    const { serial } = target;
    for (const preset of target.presets) {
      const identifier = preset.identifier;
      if (!identifier || Object.keys(preset.parameters ?? {}).length === 0) continue;
      await this.quietly({ device: serial, preset: identifier }, async () => {
        const values = await this.reads.inverters.readPreset(serial, identifier, options);
        this.record.remember({ kind: "preset", serial, preset: identifier, values });
      });
    }
    for (const setting of target.settings) {
      if (signal?.aborted) return;
      if (setting.validation_rules?.includes("writeonly")) continue;
      await this.quietly({ device: serial, setting: setting.id }, () => this.readSetting(serial, setting.id, options));
    }
  }

  /**
   * After a change: reads back only when its outcome leaves the value open (it may or may not
   * have happened, or the gate's own read failed), once; then shows the linked side of a preset
   * and its settings from the value now known, without reading it.
   */
  async afterChange({ request, outcome }: ChangeApplied, signal?: AbortSignal): Promise<void> {
    // A device action (a snapshot restored, a profile applied) is read back whole by `load`.
    if (!request || outcome.skipped || outcome.refused) return;
    if (valueOpen(request, outcome)) {
      const options = { priority: "command" as const, ...(signal ? { signal } : {}) };
      try {
        if (request.kind === "setting") await this.readSetting(request.serial, request.settingId, options);
        else if (request.kind === "preset") {
          const values = await this.reads.inverters.readPreset(request.serial, request.preset, options);
          this.record.remember({ kind: "preset", serial: request.serial, preset: request.preset, values });
        } else if (isReadableChargerCommand(request.command)) {
          const data = await this.evData(request.uuid, request.command, options);
          this.record.remember(evReading(request.uuid, request.command, data));
        }
      } catch (error) {
        this.logger.warn({ err: (error as Error).message }, "could not read back a control after a change");
      }
    } else if (request.kind === "ev-command") {
      this.takeEvValue(request.uuid, request.command, outcome.value);
    }
    if (request.kind === "ev-command") return;
    const inverter = this.devices.inverter(request.serial);
    if (inverter) mirrorLinked(this.record, inverter.settings, request);
  }

  /** A verified EV command's value, into the reading already known (its mode, its limit). */
  private takeEvValue(uuid: string, command: ChargerCommandId, value: unknown): void {
    const known = this.record.controlValues(uuid).evCommands;
    // A limit set over the charger's own path (OCPP, in amps) is known even when the cloud never said the range.
    if (command === "adjust-charge-power-limit" && typeof value === "number")
      this.record.remember(evReading(uuid, command, { unit: "A", ...known?.[command], value }));
    else if (command === "change-mode" && typeof value === "string" && known?.[command])
      this.record.remember({ kind: "ev-command", uuid, command, data: { ...known[command], active: value } });
  }

  private async readSetting(serial: string, settingId: number, options: { priority: "background" | "command" }) {
    const read = await this.reads.inverters.readSetting(serial, settingId, options);
    if (read.outcome === "done" && isSettingValue(read.value))
      this.record.remember({ kind: "setting", serial, settingId, value: read.value });
  }

  private evData<C extends ReadableChargerCommand>(
    uuid: string,
    command: C,
    options: { priority: "background" | "command" },
  ) {
    return this.reads.cloudOnly.evChargers.read(uuid, command, options);
  }

  private async quietly(fields: Record<string, unknown>, read: () => Promise<void>): Promise<void> {
    try {
      await read();
    } catch (error) {
      this.logger.debug({ ...fields, err: (error as Error).message }, "control value unavailable");
    }
  }
}

/**
 * Whether the change's value is still unknown after the gate's own read: it may have happened
 * and no value was read, or it was applied and reading it back failed. An EV command without a
 * verifier is read back once too.
 */
function valueOpen(request: ChangeRequest, outcome: ChangeOutcome): boolean {
  if (outcome.value !== undefined) return false;
  if (outcome.mayHaveApplied) return true;
  if (!outcome.ok) return false;
  return request.kind === "ev-command" || !outcome.verified;
}

function isSettingValue(value: HeldValue): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** What `command`'s control holds, as the reading of that command (the port ties the two). */
function evReading<C extends ReadableChargerCommand>(
  uuid: string,
  command: C,
  data: ChargerReadings[C],
): ControlReading {
  return { kind: "ev-command", uuid, command, data } as Extract<ControlReading, { kind: "ev-command" }>;
}

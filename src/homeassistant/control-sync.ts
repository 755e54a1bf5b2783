import type { CloudClient } from "../cloud/client.js";
import type { EvCommandId } from "../cloud/schemas/ev-commands.js";
import type { ChangeOutcome, ChangeRequest } from "../control/index.js";
import type { Logger } from "../log.js";
import { type ControllableDevice, type Device, type EvChargerDevice, hasControls } from "../telemetry/inventory.js";
import type { ControlSource, EvCommandDataMap } from "./entities/index.js";
import { presetsOfSetting, settingsOfPreset } from "./linked-controls.js";

/** EV commands whose data is the state of a control. */
const EV_STATE_COMMANDS: readonly EvCommandId[] = [
  "change-mode",
  "adjust-charge-power-limit",
  "set-plug-and-go",
  "set-session-energy-limit",
  "enable-front-panel-led",
  "set-max-import-capacity",
  "change-randomised-delay-duration",
];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The real state of each device's controls, read from the device rather than assumed:
 * preset values, setting values and EV command data, loaded once in the background at start
 * and re-read for what a command touched.
 */
export class ControlSync {
  private readonly sources = new Map<string, Mutable<ControlSource>>();

  constructor(
    private readonly client: CloudClient,
    private readonly logger: Logger,
  ) {}

  source(id: string): ControlSource {
    return this.sources.get(id) ?? {};
  }

  /** Reads every control value of a device; failures leave that value unknown. */
  async load(id: string, device: Device, signal?: AbortSignal): Promise<ControlSource> {
    if (hasControls(device)) await this.loadInverter(id, device, signal);
    if (device.kind === "ev_charger") await this.loadCharger(id, device, signal);
    return this.source(id);
  }

  /**
   * After a change: takes the confirmed value, or reads back what the change touched, and
   * reads the other side of a preset and its settings (the reserve preset and the reserve
   * setting), so both show the device's value.
   */
  async afterChange(
    id: string,
    request: ChangeRequest,
    outcome: ChangeOutcome,
    signal?: AbortSignal,
    device?: Device,
  ): Promise<ControlSource> {
    const source = this.entry(id);
    const options = { priority: "command" as const, ...(signal ? { signal } : {}) };
    await this.readTouched(source, request, outcome, options);
    if (device && hasControls(device) && request.kind !== "ev-command" && outcome.ok)
      await this.readLinked(id, device, request, options);
    return source;
  }

  private async readLinked(
    id: string,
    device: ControllableDevice,
    request: Exclude<ChangeRequest, { kind: "ev-command" }>,
    options: { priority: "command"; signal?: AbortSignal },
  ): Promise<void> {
    const source = this.entry(id);
    const known = (preset: string) => device.presets.some((one) => one.identifier === preset);
    try {
      if (request.kind === "preset") {
        for (const settingId of settingsOfPreset(request.preset, device.settings)) {
          const read = await this.client.inverterControl.readSetting(device.serial, settingId, options);
          if (read.ok && read.value !== null && read.value !== undefined)
            source.settings = { ...source.settings, [settingId]: read.value };
        }
      } else {
        for (const preset of presetsOfSetting(request.settingId, device.settings).filter(known)) {
          const values = await this.client.inverterControl.presetValues(device.serial, preset, options);
          source.presets = { ...source.presets, [preset]: values };
        }
      }
    } catch (error) {
      this.logger.warn({ device: id, err: (error as Error).message }, "could not read a linked control after a change");
    }
  }

  private async readTouched(
    source: Mutable<ControlSource>,
    request: ChangeRequest,
    outcome: ChangeOutcome,
    options: { priority: "command"; signal?: AbortSignal },
  ): Promise<void> {
    const id = request.kind === "ev-command" ? request.uuid : request.serial;
    try {
      if (request.kind === "setting") {
        const value = outcome.verified && outcome.value !== undefined ? outcome.value : undefined;
        const read =
          value === undefined
            ? await this.client.inverterControl.readSetting(request.serial, request.settingId, options)
            : undefined;
        const known = value ?? (read?.ok ? read.value : undefined);
        if (typeof known === "string" || typeof known === "number" || typeof known === "boolean") {
          source.settings = { ...source.settings, [request.settingId]: known };
        }
      } else if (request.kind === "preset") {
        const values = await this.client.inverterControl.presetValues(request.serial, request.preset, options);
        source.presets = { ...source.presets, [request.preset]: values };
      } else {
        const data = await this.client.evChargers.commandData(request.uuid, request.command, options);
        source.evCommands = { ...source.evCommands, [request.command]: data } as EvCommandDataMap;
      }
    } catch (error) {
      this.logger.warn({ device: id, err: (error as Error).message }, "could not read back a control after a change");
    }
  }

  private entry(id: string): Mutable<ControlSource> {
    let source = this.sources.get(id);
    if (!source) {
      source = {};
      this.sources.set(id, source);
    }
    return source;
  }

  private async loadInverter(id: string, device: ControllableDevice, signal?: AbortSignal): Promise<void> {
    const source = this.entry(id);
    const options = { priority: "background" as const, ...(signal ? { signal } : {}) };
    const presets: Record<string, Awaited<ReturnType<CloudClient["inverterControl"]["presetValues"]>>> = {};
    for (const preset of device.presets) {
      const identifier = preset.identifier;
      if (!identifier || Object.keys(preset.parameters ?? {}).length === 0) continue;
      try {
        presets[identifier] = await this.client.inverterControl.presetValues(device.serial, identifier, options);
      } catch (error) {
        this.logger.debug(
          { device: id, preset: identifier, err: (error as Error).message },
          "preset values unavailable",
        );
      }
    }
    source.presets = { ...source.presets, ...presets };
    const settings: Record<number, string | number | boolean> = {};
    for (const setting of device.settings) {
      if (setting.validation_rules?.includes("writeonly")) continue;
      try {
        const read = await this.client.inverterControl.readSetting(device.serial, setting.id, options);
        if (read.ok && read.value !== null && read.value !== undefined) settings[setting.id] = read.value;
      } catch (error) {
        if (signal?.aborted) return;
        this.logger.debug({ device: id, setting: setting.id, err: (error as Error).message }, "setting unavailable");
      }
    }
    source.settings = { ...source.settings, ...settings };
  }

  private async loadCharger(id: string, device: EvChargerDevice, signal?: AbortSignal): Promise<void> {
    const source = this.entry(id);
    const options = { priority: "background" as const, ...(signal ? { signal } : {}) };
    const data: Record<string, unknown> = {};
    for (const command of EV_STATE_COMMANDS) {
      if (!device.commands.includes(command)) continue;
      try {
        data[command] = await this.client.evChargers.commandData(device.uuid, command, options);
      } catch (error) {
        this.logger.debug({ device: id, command, err: (error as Error).message }, "command data unavailable");
      }
    }
    source.evCommands = { ...source.evCommands, ...data } as EvCommandDataMap;
  }
}

import type { CloudClient } from "../cloud/client.js";
import type { EvCommandData, EvCommandId } from "../cloud/schemas/ev-commands.js";
import type { ChangeOutcome, ChangeRequest, ControlGate, ControlReading } from "../control/index.js";
import type { Logger } from "../log.js";
import { type ControllableDevice, type Device, type EvChargerDevice, hasControls } from "../telemetry/inventory.js";
import type { ControlSource } from "./entities/index.js";
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

/** Where the values read go, and where they are read from: the control gate's one record of them. */
export type ControlValuesRecord = Pick<ControlGate, "remember" | "controlValues">;

/** The key the gate knows a device by: its serial, or a charger's or smart device's uuid. */
export function controlKey(device: Device): string {
  return device.kind === "ev_charger" || device.kind === "smart_device" ? device.uuid : device.serial;
}

/**
 * Reads the real state of each device's controls, rather than assuming it: preset values,
 * setting values and EV command data, loaded once in the background at start and re-read for
 * what a command touched. What it reads goes into the gate's record of current values, which
 * is what Home Assistant shows; it keeps no copy of its own.
 */
export class ControlSync {
  constructor(
    private readonly client: CloudClient,
    private readonly record: ControlValuesRecord,
    private readonly logger: Logger,
  ) {}

  source(device: Device): ControlSource {
    return this.record.controlValues(controlKey(device));
  }

  /** Reads every control value of a device; failures leave that value unknown. */
  async load(id: string, device: Device, signal?: AbortSignal): Promise<ControlSource> {
    if (hasControls(device)) await this.loadInverter(id, device, signal);
    if (device.kind === "ev_charger") await this.loadCharger(id, device, signal);
    return this.source(device);
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
    device: Device,
    signal?: AbortSignal,
  ): Promise<ControlSource> {
    const options = { priority: "command" as const, ...(signal ? { signal } : {}) };
    await this.readTouched(id, request, outcome, options);
    if (hasControls(device) && request.kind !== "ev-command" && outcome.ok)
      await this.readLinked(id, device, request, options);
    return this.source(device);
  }

  private async readLinked(
    id: string,
    device: ControllableDevice,
    request: Exclude<ChangeRequest, { kind: "ev-command" }>,
    options: { priority: "command"; signal?: AbortSignal },
  ): Promise<void> {
    const known = (preset: string) => device.presets.some((one) => one.identifier === preset);
    try {
      if (request.kind === "preset") {
        for (const settingId of settingsOfPreset(request.preset, device.settings)) {
          const read = await this.client.inverterControl.readSetting(device.serial, settingId, options);
          if (read.ok && isSettingValue(read.value))
            this.record.remember({ kind: "setting", serial: device.serial, settingId, value: read.value });
        }
      } else {
        for (const preset of presetsOfSetting(request.settingId, device.settings).filter(known)) {
          const values = await this.client.inverterControl.presetValues(device.serial, preset, options);
          this.record.remember({ kind: "preset", serial: device.serial, preset, values });
        }
      }
    } catch (error) {
      this.logger.warn({ device: id, err: (error as Error).message }, "could not read a linked control after a change");
    }
  }

  /** The gate has recorded a setting it verified; anything else the change touched is read again. */
  private async readTouched(
    id: string,
    request: ChangeRequest,
    outcome: ChangeOutcome,
    options: { priority: "command"; signal?: AbortSignal },
  ): Promise<void> {
    try {
      if (request.kind === "setting") {
        if (outcome.verified && isSettingValue(outcome.value)) return;
        const read = await this.client.inverterControl.readSetting(request.serial, request.settingId, options);
        if (read.ok && isSettingValue(read.value))
          this.record.remember({
            kind: "setting",
            serial: request.serial,
            settingId: request.settingId,
            value: read.value,
          });
      } else if (request.kind === "preset") {
        const values = await this.client.inverterControl.presetValues(request.serial, request.preset, options);
        this.record.remember({ kind: "preset", serial: request.serial, preset: request.preset, values });
      } else {
        const data = await this.client.evChargers.commandData(request.uuid, request.command, options);
        this.record.remember(evReading(request.uuid, request.command, data));
      }
    } catch (error) {
      this.logger.warn({ device: id, err: (error as Error).message }, "could not read back a control after a change");
    }
  }

  private async loadInverter(id: string, device: ControllableDevice, signal?: AbortSignal): Promise<void> {
    const options = { priority: "background" as const, ...(signal ? { signal } : {}) };
    for (const preset of device.presets) {
      const identifier = preset.identifier;
      if (!identifier || Object.keys(preset.parameters ?? {}).length === 0) continue;
      try {
        const values = await this.client.inverterControl.presetValues(device.serial, identifier, options);
        this.record.remember({ kind: "preset", serial: device.serial, preset: identifier, values });
      } catch (error) {
        this.logger.debug(
          { device: id, preset: identifier, err: (error as Error).message },
          "preset values unavailable",
        );
      }
    }
    for (const setting of device.settings) {
      if (setting.validation_rules?.includes("writeonly")) continue;
      try {
        const read = await this.client.inverterControl.readSetting(device.serial, setting.id, options);
        if (read.ok && isSettingValue(read.value))
          this.record.remember({ kind: "setting", serial: device.serial, settingId: setting.id, value: read.value });
      } catch (error) {
        if (signal?.aborted) return;
        this.logger.debug({ device: id, setting: setting.id, err: (error as Error).message }, "setting unavailable");
      }
    }
  }

  private async loadCharger(id: string, device: EvChargerDevice, signal?: AbortSignal): Promise<void> {
    const options = { priority: "background" as const, ...(signal ? { signal } : {}) };
    for (const command of EV_STATE_COMMANDS) {
      if (!device.commands.includes(command)) continue;
      try {
        const data = await this.client.evChargers.commandData(device.uuid, command, options);
        this.record.remember(evReading(device.uuid, command, data));
      } catch (error) {
        this.logger.debug({ device: id, command, err: (error as Error).message }, "command data unavailable");
      }
    }
  }
}

function isSettingValue(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** Command data read for `command`, as the reading of that command (the client ties the two). */
function evReading<C extends EvCommandId>(uuid: string, command: C, data: EvCommandData<C>): ControlReading {
  return { kind: "ev-command", uuid, command, data } as Extract<ControlReading, { kind: "ev-command" }>;
}

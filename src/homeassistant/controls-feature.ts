import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import { type ControlReadBack, type ControlTarget, changedDevice } from "../control/index.js";
import { type Device, hasControls } from "../telemetry/index.js";
import type { DeviceStates } from "./device-states.js";
import { controlState, writeCountState } from "./entities/index.js";
import { evModesOf } from "./state-keys.js";

/** The key the gate knows a device by: its serial, or a charger's or smart device's uuid. */
export function controlKey(device: Device): string {
  return device.kind === "ev_charger" || device.kind === "smart_device" ? device.uuid : device.serial;
}

function targetOf(device: Device): ControlTarget | undefined {
  if (hasControls(device))
    return { kind: "inverter", serial: device.serial, settings: device.settings, presets: device.presets };
  if (device.kind === "ev_charger") return { kind: "ev_charger", uuid: device.uuid, commands: device.commands };
  return undefined;
}

/**
 * The devices' controls in Home Assistant, as the gate records them: read once in the
 * background after the announcement, and shown again after every change the gate reports
 * (`changeApplied`), whoever asked; `control/` reads back only what the change left open.
 */
export function controlsFeature(options: {
  readonly bus: EventBus;
  readonly states: DeviceStates;
  readonly readBack: ControlReadBack;
  /** Each controllable device's writes today, by serial; left out, no count is shown. */
  readonly writesToday?: () => Readonly<Record<string, number>> | undefined;
}): Feature & { load(signal: AbortSignal): Promise<void> } {
  const { bus, states, readBack } = options;
  const name = "homeassistant-controls";
  const abort = new AbortController();

  /** The count last shown per device id. */
  const shown = new Map<string, number>();
  /** The device's count, when it has one: 0 before its first write of the day. */
  const writes = (device: Device, counts = options.writesToday?.()): number | undefined =>
    counts !== undefined && hasControls(device) ? (counts[device.serial] ?? 0) : undefined;

  const show = (id: string, device: Device): void => {
    const values = readBack.values(controlKey(device));
    if (device.kind === "ev_charger") states.learnDetails(id, { evModes: evModesOf(values.evCommands) });
    const count = writes(device);
    if (count !== undefined) shown.set(id, count);
    states.applyState(id, {
      ...controlState(device, values, states.layout(id)),
      ...(count === undefined ? {} : writeCountState(count)),
    });
  };

  /** At local midnight the counts start again with no change to show them: each poll brings them up to date. */
  const refreshCounts = (): void => {
    const counts = options.writesToday?.();
    if (counts === undefined) return;
    for (const [id, device] of states.devices) {
      const count = writes(device, counts);
      if (count === undefined || shown.get(id) === count) continue;
      shown.set(id, count);
      states.applyState(id, writeCountState(count));
    }
  };

  return {
    name,
    start() {
      bus.on("changeApplied", name, async (event) => {
        const key = changedDevice(event);
        if (key === undefined) return;
        if (event.request) await readBack.afterChange(event, abort.signal);
        else if (event.outcome.ok) {
          // A snapshot restored or a profile applied moved controls nobody named: read them all once.
          for (const device of states.devices.values()) {
            const target = controlKey(device) === key ? targetOf(device) : undefined;
            if (target) await readBack.load(target, abort.signal);
          }
        }
        for (const [id, device] of states.devices) if (controlKey(device) === key) return show(id, device);
      });
      bus.on("fetched", name, refreshCounts);
    },
    /** Reads the devices' control values in the background, with what the budget leaves. */
    async load(signal) {
      for (const [id, device] of states.devices) {
        if (signal.aborted || abort.signal.aborted) return;
        const target = targetOf(device);
        if (target) await readBack.load(target, AbortSignal.any([signal, abort.signal]));
        show(id, device);
      }
    },
    halt() {
      abort.abort();
    },
    stop() {
      abort.abort();
      bus.removeAll(name);
    },
  };
}

import type { Device, InverterDevice } from "../../telemetry/index.js";
import { batteryEntities, batteryModuleEntities } from "./battery-modules.js";
import { emsEntities } from "./ems.js";
import { evControlEntities } from "./ev-controls.js";
import { evSensorEntities } from "./ev-sensors.js";
import { freshnessEntities } from "./freshness.js";
import { counterEntities } from "./inverter-counters.js";
import { eventEntities } from "./inverter-events.js";
import { liveEntities } from "./inverter-live.js";
import { presetEntities } from "./inverter-presets.js";
import { settingEntities } from "./inverter-settings.js";
import { pathEntities } from "./path.js";
import { smartDeviceEntities } from "./smart-device.js";
import type { DeviceDetails, EntityDef } from "./types.js";
import { writeCountEntities } from "./write-count.js";

/** Inverters of an EMS plant are controlled through the EMS (api-notes), so they get sensors only. */
function inverterEntities(device: InverterDevice, details: DeviceDetails | undefined): EntityDef[] {
  const sensors = [
    ...liveEntities(device, details),
    ...counterEntities(),
    ...eventEntities(),
    ...batteryEntities(device),
    ...batteryModuleEntities(device.batteries),
  ];
  if (device.emsSerial !== undefined) return sensors;
  const controls = [...presetEntities(device.presets), ...settingEntities(device)];
  return [...sensors, ...controls, ...(device.controllable ? writeCountEntities() : [])];
}

function catalogue(device: Device, details: DeviceDetails | undefined): EntityDef[] {
  switch (device.kind) {
    case "inverter":
      return inverterEntities(device, details);
    case "ems":
      return device.controllable
        ? [
            ...emsEntities(device, details),
            ...presetEntities(device.presets),
            ...settingEntities(device),
            ...writeCountEntities(),
          ]
        : emsEntities(device, details);
    case "ev_charger":
      return [...evSensorEntities(), ...evControlEntities(device, details)];
    case "smart_device":
      return smartDeviceEntities();
  }
}

/** Every Home Assistant entity of a device, in a stable order: those that need data only once it came. */
export function entitiesFor(device: Device, details?: DeviceDetails): EntityDef[] {
  const paths =
    device.kind === "inverter" || device.kind === "ems" || device.kind === "ev_charger" ? pathEntities() : [];
  const entities = [...catalogue(device, details), ...freshnessEntities(), ...paths];
  const seen = details?.seenKeys;
  if (seen === undefined) return entities;
  const reported = new Set(seen);
  return entities.filter(
    (entity) =>
      (!entity.requiresData || reported.has(entity.key)) &&
      (entity.requiresDataOf === undefined || reported.has(entity.requiresDataOf)),
  );
}

/** The entity with this key, if the device has one. */
export function findEntity(device: Device, key: string, details?: DeviceDetails): EntityDef | undefined {
  return entitiesFor(device, details).find((entity) => entity.key === key);
}

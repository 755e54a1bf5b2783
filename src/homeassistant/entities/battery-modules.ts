import type { InverterDevice } from "../../telemetry/index.js";
import type { BatteryModule } from "../../vocabulary/index.js";
import { plain, storedEnergy } from "./sensors.js";
import type { EntityDef, StateValues } from "./types.js";
import { num } from "./values.js";

/**
 * Each module's number: its module_number, or its place in the listing when numbers repeat
 * (a gateway lists the modules of every All-In-One behind it, each numbered 1).
 */
function numbered(modules: readonly BatteryModule[]): { module: BatteryModule; number: number }[] {
  const numbers = modules.map((module) => module.module_number);
  const unique = new Set(numbers).size === numbers.length;
  return modules.map((module, index) => ({ module, number: unique ? module.module_number : index + 1 }));
}

const prefix = (number: number): string => `battery_${number}`;

/** The battery's usable size in kWh, from the inverter's nominal capacity and voltage (Predbat and the Energy dashboard want it). */
export function batteryEntities(device: InverterDevice): EntityDef[] {
  if (device.batteryCapacityKwh === undefined) return [];
  return [
    storedEnergy("battery_capacity", "Battery capacity", {
      icon: "mdi:battery-high",
      entity_category: "diagnostic",
    }),
  ];
}

export function batteryState(device: InverterDevice): StateValues {
  return device.batteryCapacityKwh === undefined ? {} : { battery_capacity: device.batteryCapacityKwh };
}

/** Capacities in Ah as the service reports them; Home Assistant has no device class for Ah. */
export function batteryModuleEntities(modules: readonly BatteryModule[]): EntityDef[] {
  return numbered(modules).flatMap(({ module, number }) => {
    const name = `Battery module ${number}`;
    const entities: EntityDef[] = [];
    // Only what the listing carries: a module without a cycle count gets no cycles entity.
    if (module.capacity?.full != null)
      entities.push(
        plain(`${prefix(number)}_capacity`, `${name} capacity`, {
          unit: "Ah",
          state_class: "measurement",
          icon: "mdi:battery-heart-variant",
          entity_category: "diagnostic",
        }),
      );
    if (module.capacity?.design != null)
      entities.push(
        plain(`${prefix(number)}_design_capacity`, `${name} design capacity`, {
          unit: "Ah",
          icon: "mdi:battery-outline",
          entity_category: "diagnostic",
        }),
      );
    if (module.cycle_count != null)
      entities.push(
        plain(`${prefix(number)}_cycle_count`, `${name} cycles`, {
          state_class: "total_increasing",
          icon: "mdi:battery-sync",
          entity_category: "diagnostic",
        }),
      );
    return entities;
  });
}

/** Module values come with the inventory (the communication device listing), not with a reading. */
export function batteryModuleState(modules: readonly BatteryModule[]): StateValues {
  const values: StateValues = {};
  for (const { module, number } of numbered(modules)) {
    values[`${prefix(number)}_capacity`] = num(module.capacity?.full);
    values[`${prefix(number)}_design_capacity`] = num(module.capacity?.design);
    values[`${prefix(number)}_cycle_count`] = num(module.cycle_count);
  }
  return values;
}

import type { BatteryModule } from "../../cloud/schemas/communication-device.js";
import { plain } from "./sensors.js";
import type { EntityDef, StateValues } from "./types.js";
import { num } from "./values.js";

const prefix = (module: BatteryModule): string => `battery_${module.module_number}`;

/** Capacities in Ah as the service reports them; Home Assistant has no device class for Ah. */
export function batteryModuleEntities(modules: readonly BatteryModule[]): EntityDef[] {
  return modules.flatMap((module) => {
    const name = `Battery module ${module.module_number}`;
    return [
      plain(`${prefix(module)}_capacity`, `${name} capacity`, {
        unit: "Ah",
        state_class: "measurement",
        icon: "mdi:battery-heart-variant",
        entity_category: "diagnostic",
      }),
      plain(`${prefix(module)}_design_capacity`, `${name} design capacity`, {
        unit: "Ah",
        icon: "mdi:battery-outline",
        entity_category: "diagnostic",
      }),
      plain(`${prefix(module)}_cycle_count`, `${name} cycles`, {
        state_class: "total_increasing",
        icon: "mdi:battery-sync",
        entity_category: "diagnostic",
      }),
    ];
  });
}

/** Module values come with the inventory (the communication device listing), not with a reading. */
export function batteryModuleState(modules: readonly BatteryModule[]): StateValues {
  const values: StateValues = {};
  for (const module of modules) {
    values[`${prefix(module)}_capacity`] = num(module.capacity?.full);
    values[`${prefix(module)}_design_capacity`] = num(module.capacity?.design);
    values[`${prefix(module)}_cycle_count`] = num(module.cycle_count);
  }
  return values;
}

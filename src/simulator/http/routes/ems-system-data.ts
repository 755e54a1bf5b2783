import type { z } from "zod";
import type { emsSystemData } from "../../../cloud/index.js";
import { isoSeconds } from "../../../time/index.js";
import type { EmsRecord } from "../../world/world.js";

const EMS_INVERTER_STATUS = { NORMAL: 2, WAITING: 1, ERROR: 4, LOST: 7, UNKNOWN: 0 } as const;

/** GET /ems/{serial}/system-data/latest: the plant's sums and one row per child inverter and meter. */
export function emsSystemDataBody(ems: EmsRecord, now: number): z.input<typeof emsSystemData> {
  let battery = 0;
  let whRemaining = 0;
  let generation = 0;
  let grid = 0;
  let load = 0;
  const inverters = ems.inverters.map((record, index) => {
    record.model.advanceTo(now);
    const model = record.model;
    battery += model.batteryPowerW();
    whRemaining += (model.socPercent() / 100) * record.entry.battery_kwh * 1000;
    generation += model.pvPowerW();
    grid += model.gridPowerW();
    load += model.loadPowerW();
    const status = model.status();
    return {
      active_power: status === "LOST" ? null : Math.round(model.pvPowerW() + model.batteryPowerW()),
      number: index + 1,
      serial_number: record.serial,
      soc: status === "LOST" ? null : Math.round(model.socPercent()),
      status: EMS_INVERTER_STATUS[status],
      temperature: status === "LOST" ? null : Math.round(model.temperatureC() * 10) / 10,
    };
  });
  const meters = Array.from({ length: ems.meterCount }, (_, i) => ({
    active_power: i === 0 ? Math.round(grid) : Math.round(generation),
    number: i + 1,
    status: 1,
    type: i === 0 ? 0 : 1,
  }));
  const anyError = inverters.some(
    (i) => i.status === EMS_INVERTER_STATUS.ERROR || i.status === EMS_INVERTER_STATUS.LOST,
  );
  return {
    time: isoSeconds(now),
    status: anyError ? 2 : 1,
    battery_power: Math.round(battery),
    battery_wh_remaining: Math.round(whRemaining),
    calculated_load_power: Math.round(load),
    car_power: 0,
    grid_power: Math.round(grid),
    measured_load_power: Math.round(load),
    total_generation: Math.round(generation),
    error_code: 0,
    warning_code: anyError ? 1 : 0,
    inverters,
    meters,
  };
}

/** Setting IDs of the Gen3 hybrid listing that presets and defaults refer to (api-notes, key setting IDs). */
export const SETTING = {
  acChargeUpperLimitEnable: 17,
  ecoMode: 24,
  maxOutputPercent: 47,
  dcDischargeEnable: 56,
  acChargeEnable: 66,
  batteryReserve: 71,
  batteryChargePower: 72,
  batteryDischargePower: 73,
  batteryCutoff: 75,
  acChargeUpperLimit: 77,
  restartInverter: 83,
  pauseBattery: 96,
  pauseBatteryStart: 155,
  pauseBatteryEnd: 156,
  exportPowerPriority: 265,
  chargePowerPercent: 267,
  dischargePowerPercent: 268,
  enableEps: 271,
  realTimeControl: 504,
} as const;

/** One time slot: its start and end time settings and its SOC limit setting. */
export interface SlotIds {
  readonly start: number;
  readonly end: number;
  /** Upper SOC % for an AC charge slot, lower SOC % for a DC discharge slot. */
  readonly limit: number;
}

const triplets = (count: number, first: number): SlotIds[] =>
  Array.from({ length: count }, (_, index) => ({
    start: first + index * 3,
    end: first + index * 3 + 1,
    limit: first + index * 3 + 2,
  }));

/** AC charge slots 1..10: slot 1 is 64/65/101, slots 2..10 the triplets 102..128. */
export const AC_CHARGE_SLOTS: readonly SlotIds[] = [{ start: 64, end: 65, limit: 101 }, ...triplets(9, 102)];

/** DC discharge slots 1..10: slot 1 is 53/54/129, slot 2 is 41/42/130, slots 3..10 the triplets 131..154. */
export const DC_DISCHARGE_SLOTS: readonly SlotIds[] = [
  { start: 53, end: 54, limit: 129 },
  { start: 41, end: 42, limit: 130 },
  ...triplets(8, 131),
];

/** A slot whose start and end are both this is off. */
export const SLOT_OFF = "00:00";

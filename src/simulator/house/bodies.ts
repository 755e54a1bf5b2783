/*
 * The inverter data bodies as the simulator sends them, shaped as the real service's
 * (real-responses: avasapollo_system_data_latest.json, predbat_doc_system_data_latest.json,
 * predbat_doc_meter_data_latest.json). Null where a device has nothing, as the service does.
 * These are the simulator's own types: the client's schemas read more shapes than are sent.
 * Type aliases, not interfaces, so that a body passes where JSON is expected.
 */

export type SolarArrayBody = {
  array: number;
  voltage: number;
  current: number;
  power: number;
};

export type SolarBody = {
  power: number;
  arrays: SolarArrayBody[];
};

export type GridBody = {
  voltage: number;
  current: number;
  power: number;
  frequency: number;
};

export type BatteryBody = {
  percent: number;
  power: number;
  temperature: number | null;
};

export type InverterPowerBody = {
  temperature: number | null;
  power: number;
  output_voltage: number | null;
  output_frequency: number | null;
  eps_power: number | null;
};

/** Energy counters in kWh. */
export type EnergyTotalsBody = {
  solar: number;
  grid: { import: number; export: number };
  battery: { charge: number; discharge: number };
  consumption: number;
  ac_charge: number;
};

export type SystemDataBody = {
  time: string;
  /** "Normal", "Lost", ... */
  status: string;
  solar: SolarBody;
  grid: GridBody;
  battery: BatteryBody;
  inverter: InverterPowerBody;
  /** W; a plain number here, `{power}` in a data point. */
  consumption: number;
};

export type MeterDataBody = {
  time: string;
  today: EnergyTotalsBody | null;
  total: EnergyTotalsBody | null;
  is_metered: boolean;
};

export type DataPointBody = {
  time: string;
  status: string;
  power: {
    solar: SolarBody;
    grid: GridBody;
    battery: BatteryBody;
    consumption: { power: number };
    inverter: InverterPowerBody;
  };
  today: EnergyTotalsBody | null;
  total: EnergyTotalsBody | null;
  is_metered: boolean;
};

export type FaultEventBody = {
  event: string;
  start_time: string;
  /** Null while the fault is not cleared. */
  end_time: string | null;
};

export type EnergyFlowBody = {
  /** Local datetimes. */
  start_time: string;
  end_time: string;
  /** Type ID to kWh. */
  data: Record<string, number>;
};

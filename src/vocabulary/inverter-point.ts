/*
 * An inverter's 5-minute point as the history keeps it: an inverter.point row's data. Its archive,
 * backfill and the savings read rows in this shape, so every path writes its points so: the live
 * part under `power` (W, V, A, Hz, %, °C; grid positive exporting, battery positive discharging)
 * and the energy counters under `today` and `total` (kWh). A value the device did not give is null
 * or left out, and a section it did not give at all is left out.
 */

/** A measured value; null or left out where the device gave none. */
type Measured = number | null;

export interface SolarArrayPoint {
  readonly array: number;
  readonly voltage?: Measured;
  readonly current?: Measured;
  readonly power?: Measured;
}

export interface InverterPointPower {
  readonly solar?: { readonly power?: Measured; readonly arrays: readonly SolarArrayPoint[] } | null;
  readonly grid?: {
    readonly voltage?: Measured;
    readonly current?: Measured;
    readonly power?: Measured;
    readonly frequency?: Measured;
  } | null;
  readonly battery?: { readonly percent?: Measured; readonly power?: Measured; readonly temperature?: Measured } | null;
  readonly consumption?: { readonly power?: Measured } | null;
  readonly inverter?: {
    readonly temperature?: Measured;
    readonly power?: Measured;
    readonly output_voltage?: Measured;
    readonly output_frequency?: Measured;
    readonly eps_power?: Measured;
  } | null;
}

/** Energy counters, kWh: today's (since the inverter's local midnight) or its lifetime's. */
export interface InverterPointTotals {
  readonly solar?: Measured;
  readonly grid?: { readonly import?: Measured; readonly export?: Measured } | null;
  readonly battery?: { readonly charge?: Measured; readonly discharge?: Measured } | null;
  readonly consumption?: Measured;
  readonly ac_charge?: Measured;
}

export interface InverterPointData {
  /** The inverter's status as its path words it ("Normal", "LOST"). */
  readonly status?: string | null;
  readonly power?: InverterPointPower | null;
  readonly today?: InverterPointTotals | null;
  readonly total?: InverterPointTotals | null;
  readonly is_metered?: boolean | null;
}

/** One point: when the inverter measured it (epoch ms, the row's time) and what. */
export interface InverterPoint {
  readonly measuredAt: number;
  readonly data: InverterPointData;
}

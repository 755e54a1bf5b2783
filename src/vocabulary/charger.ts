/*
 * An EV charger in the daemon's own words, whichever path reads it (the cloud, OCPP, Modbus):
 * its status as OCPP 1.6 names a connector's, and its state keys (docs/entities.md): `status`,
 * `online` ("ON"/"OFF"), `power` (W), `energy` (kWh, the import register), `current` (A),
 * `voltage` (V), `temperature` (°C), `soc` (%), `current_offered` (A), `power_offered` (W),
 * `frequency` (Hz), and the session's `session_energy` (kWh) and `session_started_at`.
 */

/** OCPP 1.6's connector statuses: a charger's status is one of them, or unknown. */
export const EV_CHARGER_STATUSES = [
  "Available",
  "Preparing",
  "Charging",
  "SuspendedEVSE",
  "SuspendedEV",
  "Finishing",
  "Reserved",
  "Unavailable",
  "Faulted",
] as const;
export type KnownEvChargerStatus = (typeof EV_CHARGER_STATUSES)[number];

/**
 * The operating modes a charger is known to have (EcoPlus seen on a real one); it has exactly one.
 * The set is open: a charger lists the modes it offers (charger-commands.ts, ChargerModes).
 */
export const EV_OPERATING_MODES = ["SuperEco", "Eco", "Boost", "ModbusSlave", "EcoPlus"] as const;
export type KnownEvOperatingMode = (typeof EV_OPERATING_MODES)[number];

/** A charging session as every path gives it. */
export interface ChargerSession {
  /** When it started, an ISO instant (`2026-11-16T12:00:00Z`); null when the path's time cannot be read. */
  readonly startedAt: string | null;
  /** Still open: its energy is the import register now minus `meterStartKwh`. */
  readonly open: boolean;
  /** The import register at its start, kWh. */
  readonly meterStartKwh: number;
  /** The import register at its end, kWh; null while open. */
  readonly meterStopKwh: number | null;
}

/**
 * One moment of a charger's meter as the history keeps it (an ev.meter row): each measurand under
 * its OCPP 1.6 name, active energies in kWh and active powers in W, anything else as the charger
 * sent it, with its unit's name (null where the charger names none).
 */
export interface ChargerMeterSample {
  /** The meter's number on the charger: a row's key. */
  readonly meterId: number;
  /** When the charger measured it, epoch ms. */
  readonly measuredAt: number;
  readonly measurands: Readonly<Record<string, { readonly value: number; readonly unit: string | null }>>;
}

/**
 * A charging session as the history keeps it (an ev.session row at its start, updated when it
 * stops): the charger's record of it, its times as the charger wrote them, its registers in kWh.
 */
export interface ChargerSessionRecord {
  /** When it started, epoch ms: the row's time. */
  readonly startedAtMs: number;
  readonly data: {
    /** A tag or a user. */
    readonly started_by: string;
    readonly meter_start: number;
    readonly started_at: string;
    readonly stopped_by?: string | null;
    readonly meter_stop?: number | null;
    readonly stopped_at?: string | null;
    /** OCPP 1.6's stop reason, or the path's own words for it. */
    readonly stop_reason?: string | null;
  };
}

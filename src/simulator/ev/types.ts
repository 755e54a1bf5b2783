import type { ConfigurationMode } from "../../cloud/index.js";

export interface ChargerSpec {
  uuid: string;
  serialNumber: string;
  type: string;
  alias: string;
  /** Epoch ms; meter history starts here. */
  commissionDate: number;
  configurationMode: ConfigurationMode;
  /** The owner's premium subscription: configuration modes D and E need it. */
  premium: boolean;
  /** Hardware current limit, amps. */
  maxCurrentA: number;
  voltage: number;
  phases: 1 | 3;
  car: { batteryKwh: number; maxCurrentA: number };
  idTags?: { id: string; alias?: string }[];
  /** Defaults to 10. */
  maximumIdTags?: number;
}

/** Who sends a command; started_by and stopped_by of app or API actions are the user id. */
export interface ChargerActor {
  userId: string;
}

export interface ChargerOptions {
  /** Solar surplus the charger may take at `ms`, watts (not counting the charger's own draw). Defaults to 0. */
  surplusW?: (ms: number) => number;
}

export interface CommandResultBody {
  code: number;
  success: boolean;
  message: string;
  error?: { code?: string; type: string; message: string };
  data?: unknown;
}

export interface ValidationErrorBody {
  message: string;
  errors: Record<string, string[]>;
}

export type CommandAnswer = { status: 200; body: CommandResultBody } | { status: 422; body: ValidationErrorBody };

/** A charging session as the model keeps it; times in epoch ms, meter readings in kWh. */
export interface Session {
  startedBy: string;
  meterStart: number;
  startedAt: number;
  stoppedBy: string | null;
  meterStop: number | null;
  stoppedAt: number | null;
  stopReason: string | null;
}

/** What the meter reads at one instant. */
export interface MeterState {
  registerKwh: number;
  powerW: number;
  offeredA: number;
  /** Null while no car is plugged in: the charger only learns the SoC from the car. */
  socPercent: number | null;
}

/**
 * The charger as its local interfaces (the OCPP charge point, the Modbus server) see it: the same
 * engine and settings the cloud's view reads, so that every view of one simulated charger agrees.
 * Each call first moves the charger to the simulator's now, given by the caller.
 */
export interface LocalCharger {
  readonly spec: ChargerSpec;
  advanceTo(ms: number): void;
  /** The OCPP 1.6 connector status the cloud shows too (Available, Preparing, Charging, ...). */
  status(): string;
  reading(): MeterState;
  /** The session under way, or null. */
  session(): Readonly<Session> | null;
  carPlugged(): boolean;
  /**
   * Plugs the car in or out by hand (from then on the seeded car plan no longer moves it); it comes
   * back with `socPercent`, or with 15 % less than it left with.
   */
  plug(plugged: boolean, socPercent?: number): void;
  startSession(startedBy: string): void;
  stopSession(stoppedBy: string, reason: string): void;
  reboot(hard: boolean, actor: string): void;
  /** A local current limit in amps (an OCPP profile): power follows the lower of it and the charger's own. */
  setLocalLimit(limitA: number | null): void;
  localLimit(): number | null;
  setInoperative(inoperative: boolean): void;
  /** The charger's own current limit, amps (the cloud's adjust-charge-power-limit; Modbus register 91). */
  currentLimitA(): number;
  setCurrentLimitA(limitA: number): void;
}

/**
 * The GivEnergy EV charger's Modbus TCP holding registers, as GivTCP reads and writes them
 * (britkat1980/giv_tcp, GivTCP/evc.py: `evc_lut`, `getEVC`, `setCurrentLimit`, `setChargeControl`;
 * read at commit 18d154c14df1486f0fb14d2acfd42e1733a8021e). The vendor publishes no map: this is
 * the community's, from reading the charger. Where GivTCP says nothing, this file says so and the
 * simulator and the daemon share the assumption (`assumed`).
 *
 * All registers are holding registers (function 3 to read; GivTCP writes with function 16).
 * GivTCP reads 0-59 and 60-114 in two requests; scales are GivTCP's.
 */

/** One register: its address and what a raw word means. */
export interface EvcRegister {
  readonly address: number;
  /** Multiply the raw word by this to get the unit. */
  readonly scale: number;
  readonly unit: string;
}

const reg = (address: number, scale: number, unit: string): EvcRegister => ({ address, scale, unit });

export const EVC_REGISTERS = {
  /** Charging state, an index into EVC_STATES. */
  chargingState: reg(0, 1, "state"),
  /** 0 no cable, 1 a car connected. */
  connectionStatus: reg(2, 1, "flag"),
  /** An error code of EVC_ERRORS, 0 clear. */
  errorCode: reg(4, 1, "code"),
  currentL1: reg(6, 0.1, "A"),
  currentL2: reg(8, 0.1, "A"),
  currentL3: reg(10, 0.1, "A"),
  /** GivTCP reads one register, unscaled. */
  activePower: reg(13, 1, "W"),
  activePowerL1: reg(17, 1, "W"),
  activePowerL2: reg(20, 1, "W"),
  activePowerL3: reg(24, 1, "W"),
  /** The meter's register in one word: it wraps at 6553.5 kWh (GivTCP reads no second word). */
  meterEnergy: reg(29, 0.1, "kWh"),
  evseMaxCurrent: reg(32, 0.1, "A"),
  evseMinCurrent: reg(34, 0.1, "A"),
  /** The charge current limit in force. */
  chargeLimit: reg(36, 0.1, "A"),
  /** The serial number, one ASCII character per register, 38 to 68, zeros after its end. */
  serialStart: reg(38, 1, "char"),
  sessionEnergy: reg(72, 0.1, "kWh"),
  sessionDuration: reg(79, 1, "s"),
  /** Written: the charge current limit (GivTCP clamps it to min..max current before writing). */
  setChargeLimit: reg(91, 0.1, "A"),
  /** 0 plug and go enabled, 1 disabled; writable, but not on the daemon's allowlist. */
  plugAndGo: reg(93, 1, "flag"),
  /** The charge control state, an index into EVC_CHARGE_CONTROL. */
  chargeControl: reg(94, 1, "control"),
  /** Written: an index into EVC_CHARGE_CONTROL (1 start, 2 stop). */
  setChargeControl: reg(95, 1, "control"),
  /** The charger's clock, 97 to 102: year, month, day, hour, minute, second; writable, not allowlisted. */
  systemTime: reg(97, 1, "time"),
  voltageL1: reg(109, 0.1, "V"),
  voltageL2: reg(111, 0.1, "V"),
  voltageL3: reg(113, 0.1, "V"),
} as const satisfies Record<string, EvcRegister>;

/** Where the serial ends (exclusive). */
export const EVC_SERIAL_END = 69;
/** The registers read in one sweep: 0 to 114, in two requests as GivTCP does. */
export const EVC_READ_BLOCKS: readonly { readonly start: number; readonly count: number }[] = [
  { start: 0, count: 60 },
  { start: 60, count: 55 },
];
export const EVC_REGISTER_COUNT = 115;

/** GivTCP's names of the charging states, by code. */
export const EVC_STATES = [
  "Unknown",
  "Idle",
  "Connected",
  "Starting",
  "Charging",
  "Startup Failure",
  "End of Charging",
  "System Failure",
  "Scheduled",
  "Updating",
  "Unstable CP",
] as const;
export type EvcState = (typeof EVC_STATES)[number];

export const EVC_CHARGE_CONTROL = ["Ready", "Start", "Stop"] as const;
export type EvcChargeControl = (typeof EVC_CHARGE_CONTROL)[number];

/**
 * The only registers the daemon writes: the charge current limit and start/stop. Everything else
 * (plug and go, the clock, unknown addresses) is refused before anything is sent.
 */
export const EVC_WRITABLE: ReadonlySet<number> = new Set([
  EVC_REGISTERS.setChargeLimit.address,
  EVC_REGISTERS.setChargeControl.address,
]);

/** The charger's own bounds of a current limit, amps (GivTCP reads them from 32 and 34; 6 to 32 on a 32 A unit). */
export const EVC_MIN_LIMIT_A = 6;

import { createServer } from "node:net";
import type { ServerTCP } from "modbus-serial";
import {
  EVC_CHARGE_CONTROL,
  EVC_MIN_LIMIT_A,
  EVC_REGISTER_COUNT,
  EVC_REGISTERS,
  EVC_SERIAL_END,
  EVC_STATES,
  type EvcState,
  modbusSerial,
} from "../../evc/index.js";
import { type Clock, later } from "../../time/index.js";
import type { LocalCharger } from "./types.js";

/**
 * The simulated EV charger's Modbus TCP server: the GivEnergy charger's holding registers (the map
 * in evc/modbus-map.ts, after GivTCP) read from the charger's own engine, so that Modbus, OCPP and
 * the cloud show one charger. It takes writes as the charger does: the charge current limit (91),
 * start and stop (95), plug and go (93, kept but not modelled) and the clock (97-102, kept);
 * any other address answers an illegal-address exception. Every write is logged.
 *
 * A fault: `revertAfterS` makes a written current limit go back to what it was that many simulated
 * seconds later, as owners report of the real charger's local control (giv_tcp issue #467).
 */

/** Who starts and stops a session over Modbus, in the cloud's sessions. */
export const MODBUS_ACTOR = "modbus";

export interface ModbusWrite {
  /** Simulated ms. */
  readonly at: number;
  readonly functionCode: 6 | 16;
  readonly address: number;
  readonly values: readonly number[];
  /** applied, or the exception it was answered with. */
  readonly outcome: "applied" | "illegal address" | "illegal value";
}

export interface EvcModbusFaults {
  /** A written current limit reverts after this many simulated seconds; null: it holds. */
  revertAfterS: number | null;
}

export interface EvcModbusServerOptions {
  readonly charger: LocalCharger;
  readonly clock: Clock;
  readonly host?: string;
  /** 0 (or left out) picks a free port. */
  readonly port?: number;
}

/** A Modbus exception the server answers with. */
class ModbusException extends Error {
  constructor(
    readonly modbusErrorCode: 2 | 3,
    message: string,
  ) {
    super(message);
  }
}

const STATE_OF: Record<string, EvcState> = {
  Available: "Idle",
  Preparing: "Connected",
  Charging: "Charging",
  // The car is full: the charger reports the end of the charge.
  SuspendedEV: "End of Charging",
  // The charger holds the charge (a schedule's gap, no surplus).
  SuspendedEVSE: "Scheduled",
  Finishing: "End of Charging",
  Faulted: "System Failure",
  Unavailable: "Unknown",
};

const word = (value: number): number => Math.max(0, Math.min(0xffff, Math.round(value)));

export class EvcModbusServer {
  readonly writes: ModbusWrite[] = [];
  readonly faults: EvcModbusFaults = { revertAfterS: null };
  private server: ServerTCP | undefined;
  private lastControl = 0;
  /** Words written that the model does not hold (plug and go, the clock). */
  private readonly kept = new Map<number, number>();
  private cancelRevert: (() => void) | undefined;
  private boundPort = 0;

  constructor(private readonly options: EvcModbusServerOptions) {}

  get port(): number {
    return this.boundPort;
  }

  get uuid(): string {
    return this.options.charger.spec.uuid;
  }

  async start(): Promise<void> {
    const host = this.options.host ?? "127.0.0.1";
    // modbus-serial takes port 0 for its default 502: find a free port first.
    const port = this.options.port || (await freePort(host));
    const { ServerTCP } = modbusSerial();
    const server = new ServerTCP(
      {
        getHoldingRegister: (address: number) => this.read(address, 1)[0] ?? 0,
        getMultipleHoldingRegisters: (address: number, length: number) => this.read(address, length),
        setRegister: (address: number, value: number) => this.write(6, address, [value]),
        setRegisterArray: (address: number, values: number[]) => this.write(16, address, values),
      },
      { host, port },
    );
    await new Promise<void>((resolve, reject) => {
      server.on("initialized", () => resolve());
      server.on("serverError", (error) => reject(error ?? new Error("Modbus server failed")));
    });
    // A client's reset connection is no fault of the server's.
    server.on("socketError", () => undefined);
    this.server = server;
    this.boundPort = port;
  }

  async close(): Promise<void> {
    this.cancelRevert?.();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const socket of server.socks.keys()) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The whole register image, now. */
  registers(): number[] {
    const { charger, clock } = this.options;
    charger.advanceTo(clock.now());
    const { spec } = charger;
    const reading = charger.reading();
    const session = charger.session();
    const words = new Array<number>(EVC_REGISTER_COUNT).fill(0);
    const R = EVC_REGISTERS;
    const state = STATE_OF[charger.status()] ?? "Unknown";
    words[R.chargingState.address] = EVC_STATES.indexOf(state);
    words[R.connectionStatus.address] = charger.carPlugged() ? 1 : 0;
    const phaseA = reading.powerW / (spec.voltage * spec.phases);
    const livePhases = [R.currentL1, R.currentL2, R.currentL3].slice(0, spec.phases);
    for (const r of livePhases) words[r.address] = word(phaseA * 10);
    words[R.activePower.address] = word(reading.powerW);
    const phasePowers = [R.activePowerL1, R.activePowerL2, R.activePowerL3].slice(0, spec.phases);
    for (const r of phasePowers) words[r.address] = word(reading.powerW / spec.phases);
    words[R.meterEnergy.address] = Math.round(reading.registerKwh * 10) % 0x10000;
    words[R.evseMaxCurrent.address] = word(spec.maxCurrentA * 10);
    words[R.evseMinCurrent.address] = word(EVC_MIN_LIMIT_A * 10);
    words[R.chargeLimit.address] = word(charger.currentLimitA() * 10);
    words[R.setChargeLimit.address] = word(charger.currentLimitA() * 10);
    const serial = spec.serialNumber.slice(0, EVC_SERIAL_END - R.serialStart.address);
    for (let i = 0; i < serial.length; i++) words[R.serialStart.address + i] = serial.charCodeAt(i) & 0x7f;
    if (session) {
      words[R.sessionEnergy.address] = word((reading.registerKwh - session.meterStart) * 10);
      words[R.sessionDuration.address] = word((clock.now() - session.startedAt) / 1000);
    }
    const control = session ? EVC_CHARGE_CONTROL.indexOf("Start") : this.lastControl === 2 ? 2 : 0;
    words[R.chargeControl.address] = control;
    words[R.setChargeControl.address] = control;
    const volts = [R.voltageL1, R.voltageL2, R.voltageL3].slice(0, spec.phases);
    for (const r of volts) words[r.address] = word(spec.voltage * 10);
    for (const [address, value] of this.kept) words[address] = value;
    return words;
  }

  private read(address: number, length: number): number[] {
    if (address < 0 || address + length > EVC_REGISTER_COUNT) {
      throw new ModbusException(2, `no registers ${address}..${address + length - 1}`);
    }
    return this.registers().slice(address, address + length);
  }

  private write(functionCode: 6 | 16, address: number, values: number[]): void {
    const { charger, clock } = this.options;
    charger.advanceTo(clock.now());
    const log = (outcome: ModbusWrite["outcome"]) =>
      this.writes.push({ at: clock.now(), functionCode, address, values: [...values], outcome });
    const R = EVC_REGISTERS;
    const only = values.length === 1 ? values[0] : undefined;
    try {
      if (address === R.setChargeLimit.address && only !== undefined) {
        const amps = only / 10;
        if (amps < EVC_MIN_LIMIT_A || amps > charger.spec.maxCurrentA) {
          throw new ModbusException(
            3,
            `a limit of ${amps} A is outside ${EVC_MIN_LIMIT_A}..${charger.spec.maxCurrentA}`,
          );
        }
        this.setLimit(amps);
      } else if (address === R.setChargeControl.address && only !== undefined) {
        if (only > 2) throw new ModbusException(3, `no charge control ${only}`);
        this.lastControl = only;
        if (only === 1) charger.startSession(MODBUS_ACTOR);
        if (only === 2) charger.stopSession(MODBUS_ACTOR, "Local");
      } else if (address === R.plugAndGo.address && only !== undefined) {
        if (only > 1) throw new ModbusException(3, `plug and go takes 0 or 1, not ${only}`);
        this.kept.set(address, only);
      } else if (address === R.systemTime.address && values.length === 6) {
        values.forEach((value, i) => {
          this.kept.set(address + i, value);
        });
      } else {
        throw new ModbusException(2, `register ${address} (${values.length} words) is not writable`);
      }
    } catch (error) {
      if (error instanceof ModbusException) log(error.modbusErrorCode === 2 ? "illegal address" : "illegal value");
      throw error;
    }
    log("applied");
  }

  private setLimit(amps: number): void {
    const { charger, clock } = this.options;
    const before = charger.currentLimitA();
    charger.setCurrentLimitA(amps);
    this.cancelRevert?.();
    this.cancelRevert = undefined;
    const after = this.faults.revertAfterS;
    if (after === null) return;
    this.cancelRevert = later(clock, after * 1000, () => {
      charger.advanceTo(clock.now());
      if (charger.currentLimitA() === amps) charger.setCurrentLimitA(before);
    });
  }
}

/** A port free on `host` right now. */
async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

import { z } from "zod";
import type { Logger } from "../log/log.js";
import { type Clock, later } from "../time/index.js";
import {
  EVC_CHARGE_CONTROL,
  EVC_READ_BLOCKS,
  EVC_REGISTER_COUNT,
  EVC_REGISTERS,
  EVC_SERIAL_END,
  EVC_STATES,
  EVC_WRITABLE,
} from "./modbus-map.js";
import { modbusSerial } from "./modbus-serial.js";

/**
 * The EV charger over Modbus TCP (the daemon's side): reads its state from the holding registers
 * of evc/modbus-map.ts and writes only the allowlisted ones (the charge current limit, start,
 * stop). A write is refused before anything is sent unless its register is on the allowlist and
 * its value in range; once sent, it is read back after `readBackDelayMs` on the daemon's clock, and
 * a value that did not hold (the charger reverted it) is reported as such.
 */

export interface ModbusChargerOptions {
  readonly host: string;
  readonly port: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The Modbus unit; 1 by default. */
  readonly unitId?: number;
  /** Real ms to wait for an answer; 3000 by default. */
  readonly timeoutMs?: number;
  /** Ms on `clock` between a write and its read-back; 2000 by default, as the charger applies it. */
  readonly readBackDelayMs?: number;
}

const word = z.number().int().min(0).max(0xffff);
const block = (count: number) => z.array(word).length(count);

/** What one sweep of the registers says, in units. */
export const chargerReading = z.object({
  state: z.enum(EVC_STATES),
  carConnected: z.boolean(),
  errorCode: z.number().int(),
  powerW: z.number(),
  currentA: z.tuple([z.number(), z.number(), z.number()]),
  voltageV: z.tuple([z.number(), z.number(), z.number()]),
  /** The meter's register, kWh (one word: it wraps at 6553.5). */
  energyKwh: z.number(),
  currentLimitA: z.number(),
  minCurrentA: z.number(),
  maxCurrentA: z.number(),
  sessionEnergyKwh: z.number(),
  sessionDurationS: z.number().int(),
  chargeControl: z.enum(EVC_CHARGE_CONTROL),
  serial: z.string(),
});
export type ChargerReading = z.infer<typeof chargerReading>;

/**
 * A write's answer, in the control gate's terms (sources/' PathOutcome, which this folder does not
 * import: sources/ adapts this client): done with the value read back (`reverted` when the charger
 * took the value and then went back), refused (nothing applied), or open (it may have applied).
 */
export type ChargerWriteOutcome =
  | { readonly outcome: "done"; readonly value: number; readonly message?: string; readonly reverted?: boolean }
  | { readonly outcome: "refused" | "open"; readonly reason: string };

export interface ModbusCharger {
  read(): Promise<ChargerReading>;
  /** The charge current limit, amps (from the charger's own min..max, read first). */
  setCurrentLimit(amps: number): Promise<ChargerWriteOutcome>;
  start(): Promise<ChargerWriteOutcome>;
  stop(): Promise<ChargerWriteOutcome>;
  /** One register write; anything off the allowlist is refused and never sent. */
  writeRegister(address: number, value: number): Promise<ChargerWriteOutcome>;
  close(): Promise<void>;
}

function decode(words: readonly number[]): ChargerReading {
  const R = EVC_REGISTERS;
  const at = (r: { address: number; scale: number }) => Math.round((words[r.address] ?? 0) * r.scale * 10) / 10;
  const serial = String.fromCharCode(
    ...words.slice(R.serialStart.address, EVC_SERIAL_END).filter((c) => c > 0 && c < 0x80),
  );
  return chargerReading.parse({
    state: EVC_STATES[words[R.chargingState.address] ?? 0] ?? "Unknown",
    carConnected: words[R.connectionStatus.address] === 1,
    errorCode: words[R.errorCode.address] ?? 0,
    powerW: at(R.activePower),
    currentA: [at(R.currentL1), at(R.currentL2), at(R.currentL3)],
    voltageV: [at(R.voltageL1), at(R.voltageL2), at(R.voltageL3)],
    energyKwh: at(R.meterEnergy),
    currentLimitA: at(R.chargeLimit),
    minCurrentA: at(R.evseMinCurrent),
    maxCurrentA: at(R.evseMaxCurrent),
    sessionEnergyKwh: at(R.sessionEnergy),
    sessionDurationS: words[R.sessionDuration.address] ?? 0,
    chargeControl: EVC_CHARGE_CONTROL[words[R.chargeControl.address] ?? 0] ?? "Ready",
    serial,
  });
}

/** A Modbus exception answer (the device said no): nothing was applied. */
function exceptionOf(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "modbusCode" in error) {
    const code = (error as { modbusCode: unknown }).modbusCode;
    if (typeof code === "number") return `the charger answered Modbus exception ${code}`;
  }
  return undefined;
}

export function modbusCharger(options: ModbusChargerOptions): ModbusCharger {
  const { clock, logger } = options;
  const log = logger.child({ evc: `${options.host}:${options.port}` });
  const ModbusRTU = modbusSerial();
  const client = new ModbusRTU();
  let closed = false;
  let connecting: Promise<void> | undefined;
  /** One request at a time, in order. */
  let chain: Promise<unknown> = Promise.resolve();

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = chain.then(work, work);
    chain = run.catch(() => undefined);
    return run;
  };

  const connect = async (): Promise<void> => {
    if (closed) throw new Error("closed");
    if (client.isOpen) return;
    connecting ??= client
      .connectTCP(options.host, { port: options.port })
      .then(() => {
        client.setID(options.unitId ?? 1);
        client.setTimeout(options.timeoutMs ?? 3000);
      })
      .finally(() => {
        connecting = undefined;
      });
    await connecting;
  };

  /** Drops a connection that failed, so the next request connects afresh. */
  const drop = (): void => {
    if (client.isOpen) client.close(() => undefined);
  };

  const readWords = async (): Promise<number[]> => {
    await connect();
    const words: number[] = [];
    for (const b of EVC_READ_BLOCKS) {
      const answer = await client.readHoldingRegisters(b.start, b.count);
      words.push(...block(b.count).parse(answer.data));
    }
    return block(EVC_REGISTER_COUNT).parse(words);
  };

  const read = (): Promise<ChargerReading> =>
    serial(async () => {
      try {
        return decode(await readWords());
      } catch (error) {
        drop();
        throw error;
      }
    });

  const wait = (ms: number): Promise<void> =>
    ms <= 0 ? Promise.resolve() : new Promise((resolve) => later(clock, ms, resolve));

  /** Sends one allowlisted word, reads the charger back, and says whether the value held. */
  const send = async (
    address: number,
    value: number,
    heldAs: (reading: ChargerReading) => number,
    expected: number,
  ): Promise<ChargerWriteOutcome> => {
    if (!EVC_WRITABLE.has(address)) {
      return { outcome: "refused", reason: `register ${address} is not one the daemon writes` };
    }
    if (!word.safeParse(value).success) {
      return { outcome: "refused", reason: `${value} does not fit a register` };
    }
    try {
      await serial(connect);
    } catch (error) {
      drop();
      return { outcome: "refused", reason: `cannot reach the charger: ${String(error)}` };
    }
    try {
      await serial(() => client.writeRegisters(address, [value]));
    } catch (error) {
      const exception = exceptionOf(error);
      if (exception) return { outcome: "refused", reason: exception };
      drop();
      log.warn({ address, value, err: error }, "EV charger write went unanswered");
      return { outcome: "open", reason: `no answer to the write: ${String(error)}` };
    }
    await wait(options.readBackDelayMs ?? 2000);
    let held: number;
    try {
      held = heldAs(await read());
    } catch (error) {
      return { outcome: "open", reason: `written, but the read-back failed: ${String(error)}` };
    }
    if (held !== expected) {
      log.warn({ address, value, held, expected }, "EV charger reverted a write");
      return {
        outcome: "done",
        value: held,
        reverted: true,
        message: `the charger took ${expected} and went back to ${held}`,
      };
    }
    return { outcome: "done", value: held };
  };

  const setCurrentLimit = async (amps: number): Promise<ChargerWriteOutcome> => {
    let bounds: ChargerReading;
    try {
      bounds = await read();
    } catch (error) {
      return { outcome: "refused", reason: `cannot read the charger's bounds: ${String(error)}` };
    }
    if (!Number.isFinite(amps) || amps < bounds.minCurrentA || amps > bounds.maxCurrentA) {
      return {
        outcome: "refused",
        reason: `${amps} A is outside the charger's ${bounds.minCurrentA}..${bounds.maxCurrentA} A`,
      };
    }
    const tenths = Math.round(amps * 10);
    return send(EVC_REGISTERS.setChargeLimit.address, tenths, (r) => r.currentLimitA, tenths / 10);
  };

  const control = (which: "Start" | "Stop"): Promise<ChargerWriteOutcome> => {
    const code = EVC_CHARGE_CONTROL.indexOf(which);
    return send(EVC_REGISTERS.setChargeControl.address, code, (r) => EVC_CHARGE_CONTROL.indexOf(r.chargeControl), code);
  };

  const writeRegister = async (address: number, value: number): Promise<ChargerWriteOutcome> => {
    if (address === EVC_REGISTERS.setChargeLimit.address) return setCurrentLimit(value / 10);
    if (address === EVC_REGISTERS.setChargeControl.address) {
      if (value === 1) return control("Start");
      if (value === 2) return control("Stop");
      return { outcome: "refused", reason: `charge control takes 1 (start) or 2 (stop), not ${value}` };
    }
    return { outcome: "refused", reason: `register ${address} is not one the daemon writes` };
  };

  return {
    read,
    setCurrentLimit,
    start: () => control("Start"),
    stop: () => control("Stop"),
    writeRegister,
    close: async () => {
      closed = true;
      await chain.catch(() => undefined);
      await new Promise<void>((resolve) => {
        if (client.isOpen) client.close(() => resolve());
        else resolve();
      });
    },
  };
}

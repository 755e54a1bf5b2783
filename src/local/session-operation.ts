// What a DongleSession is asked (a read or a single-register write), how an answer is matched to
// it, and how it is named in errors.
import { ModbusFunction } from "./frame.js";

export type ReadFunction = typeof ModbusFunction.readHolding | typeof ModbusFunction.readInput;

export interface Read {
  readonly address: number;
  readonly function: ReadFunction;
  readonly base: number;
  readonly count: number;
}

/** One holding register written with function 0x06. */
export interface Write {
  readonly address: number;
  readonly register: number;
  readonly value: number;
}

/**
 * Why a request failed: no answer in time (a write may still have been applied), an error
 * response (nothing changed), an echo of another value (the device took something else), or the
 * connection (not connected, dropped, closed).
 */
export type SessionErrorKind = "timeout" | "refused" | "echo" | "connection";

export class SessionError extends Error {
  override readonly name = "SessionError";
  constructor(
    message: string,
    readonly kind: SessionErrorKind = "connection",
    /** Nothing of the request went on the wire (not connected): a write surely did not apply. */
    readonly unsent = false,
  ) {
    super(message);
  }
}

export type Operation =
  | { readonly kind: "read"; readonly read: Read }
  | { readonly kind: "write"; readonly write: Write };

/** What an answer must carry to settle the operation: a read's address, function, base and count; a write's address, function and register (its value is checked after). */
export function keyOf(operation: Operation): string {
  if (operation.kind === "read") {
    const { read } = operation;
    return `${read.address}/${read.function}/${read.base}/${read.count}`;
  }
  return `${operation.write.address}/${ModbusFunction.writeSingle}/${operation.write.register}`;
}

/** What the operation asks of its device, e.g. "registers 0-9" or "the write of 20 to holding register 110". */
export function describe(operation: Operation): string {
  if (operation.kind === "write")
    return `the write of ${operation.write.value} to holding register ${operation.write.register}`;
  const { base, count } = operation.read;
  return `registers ${base}-${base + count - 1}`;
}

export const deviceOf = (operation: Operation): string =>
  `device 0x${(operation.kind === "write" ? operation.write.address : operation.read.address).toString(16)}`;

export const notAsked = (operation: Operation): string =>
  `${deviceOf(operation)} was not asked for ${describe(operation)}`;

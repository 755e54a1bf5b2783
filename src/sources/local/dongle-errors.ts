/** An answer that came from another device than the one the address is paired with. */
export interface WrongDevice {
  /** host:port */
  readonly where: string;
  /** The serial the address is paired with. */
  readonly expected: string;
  /** The serial the answer carried (the same as `expected` when only the model differs). */
  readonly answered: string;
  /** What differed, in words: "answers for SE2024G102, not SD2024G001". */
  readonly why: string;
}

export class LocalDongleError extends Error {
  override readonly name: string = "LocalDongleError";
}

/**
 * An answer from another device than the one the address is paired with: the read (or the poll)
 * fails, a write is refused (or, when its echo was the other device's, reported as reaching it).
 */
export class WrongDeviceError extends LocalDongleError {
  override readonly name = "WrongDeviceError";
  constructor(
    message: string,
    readonly wrong: WrongDevice,
  ) {
    super(message);
  }
}

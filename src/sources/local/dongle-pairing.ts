import { type DecodedDevice, type Frame, modelFromIdentity } from "../../local/index.js";
import { LocalDongleError, type WrongDevice, WrongDeviceError } from "./dongle-errors.js";
import { type DongleOptions, whereOf } from "./dongle-options.js";

/** The controller answers at 0x11, and at 0x31 on AC and Gen1 units: the addresses whose answers carry its serial. */
const CONTROLLER_ADDRESSES: ReadonlySet<number> = new Set([0x11, 0x31]);

/** A serial as answers carry it, for comparing: NULs and spaces trimmed, upper case; "" when the frame tells none. */
const toldSerial = (serial: string): string => serial.replace(/\0/g, "").trim().toUpperCase();

type Answer = Extract<Frame, { kind: "response" | "error" }>;

/**
 * Which device one dongle's address is paired with, by the serial its controller's answers
 * carry, and whether each answer comes from it. An answer from another device is counted, so
 * that the read or write it answered fails, and told once per change.
 */
export class DonglePairing {
  /**
   * The device serial the controller's answers on this address carry (upper case): set by the
   * first answer after start-up or an unpairing, then every answer must carry it.
   */
  private paired: string | undefined;
  /** The paired device's serial as its registers hold it (HR 13-17), when they differ from what its answers carry. */
  private registersSerial: string | undefined;
  /** The controller's device type (HR 0) once its identity bank answered for the paired device. */
  private pairedType: number | undefined;
  /**
   * Whether the next answer that tells a serial may pair the address: before discovery, and
   * while the address is asked who answers there (whoAnswers); never for an answer that merely
   * arrives after an unpairing.
   */
  private pairingOpen = true;
  /** Set while the address answers for another device than the paired one; cleared by an answer from it. */
  private wrongDevice: WrongDevice | undefined;
  /** The last answer from another device, kept through an unpairing: what a read or write it failed says. */
  private lastMismatch: WrongDevice | undefined;
  /** Answers from another device, counted: a read or write during which one came fails. */
  private mismatches = 0;
  /**
   * The last connection on which an answer carried the paired serial, and the last on which the
   * identity bank answered with the paired device type.
   */
  private verifiedOn = -1;
  private typedOn = -1;
  private readonly where: string;

  constructor(
    private readonly options: DongleOptions,
    /** Connections the session made so far. */
    private readonly connections: () => number,
    /** Whether the identity bank may be asked now (it is not missing). */
    private readonly identityDue: () => boolean,
  ) {
    this.where = whereOf(options);
  }

  /** The serial the controller's answers carry, undefined while paired with nothing. */
  get serial(): string | undefined {
    return this.paired;
  }

  /** The serial of the device this address is paired with (upper case, as its registers hold it), undefined when none. */
  get pairedSerial(): string | undefined {
    return this.registersSerial ?? this.paired;
  }

  /** Whether the address answered its last for another device than its paired one. */
  get answersForAnother(): WrongDevice | undefined {
    return this.wrongDevice;
  }

  /** Answers from another device so far: compared before and after an operation by `failIfMismatched`. */
  get mismatchCount(): number {
    return this.mismatches;
  }

  /**
   * After discovery: an address whose answers told no serial is paired with the serial its
   * controller's registers hold (HR 13-17); one whose answers carry another serial than those
   * registers is said so (its answers are checked against what they carried). A paired active
   * dongle's address is then paired again only when asked who answers.
   */
  afterDiscovery(controller: DecodedDevice | undefined): void {
    this.pairWith(controller);
    if (this.paired !== undefined) this.pairingOpen = this.options.passive;
  }

  private pairWith(controller: DecodedDevice | undefined): void {
    const serial = controller ? toldSerial(controller.serial) : "";
    if (serial === "") return;
    if (this.paired === undefined) this.paired = serial;
    else if (serial !== this.paired) {
      this.registersSerial = serial;
      this.options.logger?.warn(
        { dongle: this.where, answers: this.paired, registers: serial },
        `the dongle at ${this.where} answers with the serial ${this.paired} while its inverter's registers say ${serial}: each answer is checked against ${this.paired}`,
      );
    }
  }

  /** Runs `work` with the pairing open: an answer that tells a serial pairs the address. */
  async whileOpen(work: () => Promise<void>): Promise<void> {
    this.pairingOpen = true;
    try {
      await work();
    } finally {
      this.pairingOpen = false;
    }
  }

  /** Forgets the paired device: the next answer pairs the address again (a passive one's at once). */
  unpair(): void {
    this.paired = undefined;
    this.registersSerial = undefined;
    this.pairingOpen = this.options.passive;
    this.pairedType = undefined;
    this.typedOn = -1;
    this.wrongDevice = undefined;
  }

  /** Whether the device type can be checked: the paired device's identity bank answered and is not missing now. */
  typeCheckable(): boolean {
    return this.pairedType !== undefined && this.identityDue();
  }

  /** Whether the identity bank answered with the paired device type on this connection. */
  typedOnThisConnection(): boolean {
    return this.typedOn === this.connections();
  }

  /** Whether this connection's answers showed the paired device: its serial, and its device type where that can be read. */
  confirmed(): boolean {
    return this.verifiedOn === this.connections() && (this.typedOnThisConnection() || !this.typeCheckable());
  }

  /** Throws while the address answers for another device than its paired one. */
  refuseWrongDevice(outcome: string): void {
    const wrong = this.wrongDevice;
    if (wrong)
      throw new WrongDeviceError(
        `the dongle at ${this.where} ${wrong.why}: ${wrong.expected} is not reached through it (${outcome})`,
        wrong,
      );
  }

  /** Throws when an answer from another device came since `before` (a count of them): the operation under way was not its device's. */
  failIfMismatched(before: number, outcome: (wrong: WrongDevice) => string): void {
    if (this.mismatches === before) return;
    const wrong = this.lastMismatch;
    if (!wrong) throw new LocalDongleError(`the dongle at ${this.where} is paired with no device now`);
    throw new WrongDeviceError(`the dongle at ${this.where} ${wrong.why}: ${outcome(wrong)}`, wrong);
  }

  /** A read during which another device answered fails with that: its values are not this device's. */
  async checked(reading: Promise<number[]>): Promise<number[]> {
    const before = this.mismatches;
    let values: number[];
    try {
      values = await reading;
    } catch (error) {
      this.failIfMismatched(before, () => "the read failed");
      throw error;
    }
    this.failIfMismatched(before, () => "its answer is not used");
    return values;
  }

  /**
   * Whether an answer comes from the device this address is paired with. The controller's
   * answers (0x11, 0x31) carry its serial (every real capture's do, at every address but an
   * All-in-One's battery modules, which carry their own): the first one pairs the address, each
   * after must carry the same, and its identity bank the same device type (HR 0). A frame with a
   * blank serial tells none and is judged by its device type alone. Other addresses' answers are
   * taken only while the controller answers for the paired device. An answer from another device
   * is counted (the read or write it answers fails), told once per change, and never decoded.
   */
  accepts(frame: Answer): boolean {
    if (!CONTROLLER_ADDRESSES.has(frame.address))
      return this.wrongDevice === undefined && (this.paired !== undefined || this.pairingOpen);
    const serial = toldSerial(frame.deviceSerial);
    if (this.paired === undefined && serial !== "" && this.pairingOpen) {
      this.paired = serial;
      this.verifiedOn = this.connections();
    }
    const expected = this.paired;
    if (expected === undefined) {
      if (this.pairingOpen) return true;
      // Unpaired (its address answered for another device) and not being asked who answers: nobody's answer.
      this.mismatches++;
      return false;
    }
    if (serial !== "" && serial !== expected)
      return this.mismatch({
        where: this.where,
        expected,
        answered: serial,
        why: `answers for ${serial}, not ${expected}`,
      });
    const identity = frame.kind === "response" && frame.function === 3 && frame.base === 0 ? frame.values : [];
    const type = identity[0];
    if (type !== undefined && type !== 0) {
      if (this.pairedType === undefined) this.pairedType = type;
      if (type !== this.pairedType) {
        const firmware = identity[21];
        const hex = (code: number): string => code.toString(16).padStart(4, "0");
        return this.mismatch({
          where: this.where,
          expected,
          answered: serial || expected,
          why: `answers as a ${modelFromIdentity(type, firmware)} (device type ${hex(type)}), not the ${modelFromIdentity(this.pairedType, firmware)} (${hex(this.pairedType)}) ${expected} is`,
        });
      }
    }
    const typed = type !== undefined && type !== 0;
    if (typed) this.typedOn = this.connections();
    // A frame with a blank serial tells the device by its type alone.
    if (serial !== "" || typed) this.verifiedOn = this.connections();
    // Another serial is undone by the paired serial; another device type only by the paired type.
    const wrong = this.wrongDevice;
    if (wrong && ((serial !== "" && wrong.answered !== expected) || typed)) {
      this.options.logger?.warn(
        { dongle: this.where, serial: expected, was: wrong.answered },
        `the dongle at ${this.where} answers for ${expected} again`,
      );
      this.wrongDevice = undefined;
    }
    return true;
  }

  private mismatch(wrong: WrongDevice): false {
    this.mismatches++;
    this.lastMismatch = wrong;
    const told = this.wrongDevice?.why === wrong.why;
    this.wrongDevice = wrong;
    if (!told) this.options.onWrongDevice?.(wrong);
    return false;
  }
}

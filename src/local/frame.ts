import { z } from "zod";
import { crc16Modbus } from "./crc.js";

/**
 * The dongle's frames (TCP 8899): `59 59` transaction id, `00 01` protocol id, a 16-bit length of
 * what follows, unit id `01`, then function `01` (heartbeat) or `02` (transparent). A transparent
 * frame carries the dongle's serial, 8 padding bytes whose last one counts the bytes after it, and
 * a Modbus PDU with a device address and a CRC-16/Modbus sent low byte first, computed from the
 * device address to the byte before the CRC.
 */
export const FRAME_MAGIC = Uint8Array.of(0x59, 0x59, 0x00, 0x01);
export const HEADER_LENGTH = 6;
/** The longest frame the dongle sends is a 60-register answer, 164 bytes; anything far longer is a false header. */
export const MAX_FRAME_LENGTH = 300;
export const HEARTBEAT_LENGTH = 13;
export const MAX_REGISTERS = 60;

const FUNCTION_HEARTBEAT = 0x01;
const FUNCTION_TRANSPARENT = 0x02;
const SERIAL_LENGTH = 10;
const PADDING_LENGTH = 8;
/** Where the Modbus PDU starts: header, unit, function, dongle serial, padding. */
const PDU_OFFSET = HEADER_LENGTH + 2 + SERIAL_LENGTH + PADDING_LENGTH;

export const ModbusFunction = { readHolding: 0x03, readInput: 0x04, writeSingle: 0x06 } as const;

export type Frame =
  | { readonly kind: "heartbeat"; readonly dongleSerial: string; readonly beat: number }
  | {
      readonly kind: "request";
      readonly dongleSerial: string;
      readonly address: number;
      readonly function: number;
      /** The register read (or written). */
      readonly base: number;
      /** How many registers are read; for a single write, the value written. */
      readonly count: number;
    }
  | {
      readonly kind: "response";
      readonly dongleSerial: string;
      readonly address: number;
      readonly function: number;
      readonly deviceSerial: string;
      readonly base: number;
      readonly count: number;
      readonly values: readonly number[];
    }
  | {
      readonly kind: "error";
      readonly dongleSerial: string;
      readonly address: number;
      /** The function asked for, without the error bit. */
      readonly function: number;
      readonly deviceSerial: string;
      readonly base: number;
      readonly count: number;
    }
  | { readonly kind: "broadcast"; readonly dongleSerial: string; readonly text: string }
  | {
      readonly kind: "crc-failure";
      readonly dongleSerial: string;
      readonly address: number;
      readonly function: number;
    };

export type FrameKind = Frame["kind"];

export class FrameError extends Error {
  override readonly name = "FrameError";
}

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length)).replace(/\0+$/, "");

const u16 = (bytes: Uint8Array, offset: number): number => ((bytes[offset] ?? 0) << 8) | (bytes[offset + 1] ?? 0);

/** Whether `bytes` begins with the frame magic at `offset`. */
export function hasMagicAt(bytes: Uint8Array, offset: number): boolean {
  return FRAME_MAGIC.every((byte, index) => bytes[offset + index] === byte);
}

/** The whole frame's length (header included) its header claims, or undefined when it is no header. */
export function claimedLength(bytes: Uint8Array, offset = 0): number | undefined {
  if (!hasMagicAt(bytes, offset) || bytes.length < offset + HEADER_LENGTH) return undefined;
  const length = u16(bytes, offset + 4);
  return length < 2 || length > MAX_FRAME_LENGTH ? undefined : HEADER_LENGTH + length;
}

/** Whether a transparent frame's CRC holds; heartbeats carry none and always hold. */
export function crcHolds(bytes: Uint8Array): boolean {
  if (bytes[7] !== FUNCTION_TRANSPARENT) return true;
  if (bytes.length < PDU_OFFSET + 4) return false;
  const sent = (bytes[bytes.length - 2] ?? 0) | ((bytes[bytes.length - 1] ?? 0) << 8);
  return crc16Modbus(bytes, PDU_OFFSET, bytes.length - 2) === sent;
}

/** The LAN-settings text a dongle broadcasts inside a transparent frame: printable ASCII and line ends. */
function broadcastText(bytes: Uint8Array): string | undefined {
  const payload = bytes.subarray(PDU_OFFSET, bytes.length - 2);
  if (payload.length < 8) return undefined;
  const printable = payload.every((byte) => (byte >= 0x20 && byte < 0x7f) || byte === 0x0d || byte === 0x0a);
  const text = String.fromCharCode(...payload);
  return printable && text.includes(",") ? text.trim() : undefined;
}

/**
 * One whole frame (as the framer cut it) as what it is. Throws a FrameError for bytes that are no
 * frame at all; a transparent frame whose CRC fails comes back as a `crc-failure`, not an error.
 */
export function parseFrame(bytes: Uint8Array): Frame {
  const length = claimedLength(bytes);
  if (length === undefined)
    throw new FrameError("not a frame: it must start 59 59 00 01 and give a length of 2 to 300");
  if (bytes.length !== length) throw new FrameError(`frame length ${bytes.length} differs from its header's ${length}`);
  if (bytes[6] !== 0x01) throw new FrameError(`unit id ${bytes[6]} is not 1`);
  const dongleSerial = ascii(bytes, 8, SERIAL_LENGTH);
  if (bytes[7] === FUNCTION_HEARTBEAT) {
    if (length !== HEADER_LENGTH + HEARTBEAT_LENGTH) throw new FrameError(`a heartbeat is 19 bytes, not ${length}`);
    return { kind: "heartbeat", dongleSerial, beat: bytes[18] ?? 0 };
  }
  if (bytes[7] !== FUNCTION_TRANSPARENT)
    throw new FrameError(`function ${bytes[7]} is neither heartbeat (1) nor transparent (2)`);
  if (length < PDU_OFFSET + 8) throw new FrameError(`a transparent frame of ${length} bytes is too short`);
  const address = bytes[PDU_OFFSET] ?? 0;
  const fn = bytes[PDU_OFFSET + 1] ?? 0;
  if (!crcHolds(bytes)) {
    const text = broadcastText(bytes);
    return text === undefined
      ? { kind: "crc-failure", dongleSerial, address, function: fn }
      : { kind: "broadcast", dongleSerial, text };
  }
  const pdu = PDU_OFFSET + 2;
  const after = length - PDU_OFFSET;
  if (after === 8) {
    return { kind: "request", dongleSerial, address, function: fn, base: u16(bytes, pdu), count: u16(bytes, pdu + 2) };
  }
  if (after < 2 + SERIAL_LENGTH + 4 + 2)
    throw new FrameError(`a ${length}-byte answer is too short for its serial, base and count`);
  const deviceSerial = ascii(bytes, pdu, SERIAL_LENGTH);
  const base = u16(bytes, pdu + SERIAL_LENGTH);
  const count = u16(bytes, pdu + SERIAL_LENGTH + 2);
  if (fn & 0x80) return { kind: "error", dongleSerial, address, function: fn & 0x7f, deviceSerial, base, count };
  const valuesAt = pdu + SERIAL_LENGTH + 4;
  const words = Math.floor((length - 2 - valuesAt) / 2);
  const values = Array.from({ length: words }, (_, index) => u16(bytes, valuesAt + index * 2));
  return { kind: "response", dongleSerial, address, function: fn, deviceSerial, base, count, values };
}

const serialSchema = z.string().regex(/^[\x20-\x7e]{1,10}$/, "a serial is 1 to 10 printable ASCII characters");
const byte = z.number().int().min(0).max(0xff);
const word = z.number().int().min(0).max(0xffff);

export const ReadRequestSchema = z
  .object({
    dongleSerial: serialSchema,
    address: byte,
    function: z.union([z.literal(ModbusFunction.readHolding), z.literal(ModbusFunction.readInput)]),
    base: word,
    count: z.number().int().min(1).max(MAX_REGISTERS),
  })
  .refine((request) => request.base + request.count <= 0x10000, "the registers read must end by 65535");
export type ReadRequest = z.infer<typeof ReadRequestSchema>;

export const WriteRequestSchema = z.object({
  dongleSerial: serialSchema,
  address: byte,
  register: word,
  value: word,
});
export type WriteRequest = z.infer<typeof WriteRequestSchema>;

function serialBytes(serial: string): number[] {
  return Array.from({ length: SERIAL_LENGTH }, (_, index) => serial.charCodeAt(index) || 0);
}

function transparent(dongleSerial: string, pduWithoutCrc: readonly number[]): Uint8Array {
  const after = pduWithoutCrc.length + 2;
  const body = [0x01, FUNCTION_TRANSPARENT, ...serialBytes(dongleSerial), 0, 0, 0, 0, 0, 0, 0, after, ...pduWithoutCrc];
  const frame = new Uint8Array(HEADER_LENGTH + body.length + 2);
  frame.set(FRAME_MAGIC, 0);
  frame[4] = ((body.length + 2) >> 8) & 0xff;
  frame[5] = (body.length + 2) & 0xff;
  frame.set(body, HEADER_LENGTH);
  const crc = crc16Modbus(frame, PDU_OFFSET, frame.length - 2);
  frame[frame.length - 2] = crc & 0xff;
  frame[frame.length - 1] = crc >> 8;
  return frame;
}

const hiLo = (value: number): number[] => [(value >> 8) & 0xff, value & 0xff];

/** A read of holding (0x03) or input (0x04) registers; throws a FrameError saying what to fix. */
export function buildReadRequest(input: ReadRequest): Uint8Array {
  const parsed = ReadRequestSchema.safeParse(input);
  if (!parsed.success)
    throw new FrameError(`bad read request: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  const { dongleSerial, address, base, count } = parsed.data;
  return transparent(dongleSerial, [address, parsed.data.function, ...hiLo(base), ...hiLo(count)]);
}

/** A single-register write (0x06). */
export function buildWriteRequest(input: WriteRequest): Uint8Array {
  const parsed = WriteRequestSchema.safeParse(input);
  if (!parsed.success)
    throw new FrameError(`bad write request: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  const { dongleSerial, address, register, value } = parsed.data;
  return transparent(dongleSerial, [address, ModbusFunction.writeSingle, ...hiLo(register), ...hiLo(value)]);
}

/** A heartbeat; the client answers the dongle's by sending the same frame back. */
export function buildHeartbeat(dongleSerial: string, beat = 1): Uint8Array {
  const serial = serialSchema.safeParse(dongleSerial);
  if (!serial.success)
    throw new FrameError(`bad heartbeat serial "${dongleSerial}": ${serial.error.issues[0]?.message}`);
  return Uint8Array.of(
    ...FRAME_MAGIC,
    0x00,
    HEARTBEAT_LENGTH,
    0x01,
    FUNCTION_HEARTBEAT,
    ...serialBytes(serial.data),
    beat & 0xff,
  );
}

/** A response (for tests and the simulator): the layout the dongle sends. */
export function buildResponse(input: {
  dongleSerial: string;
  address: number;
  function: number;
  deviceSerial: string;
  base: number;
  values: readonly number[];
}): Uint8Array {
  const words = input.values.flatMap(hiLo);
  return transparent(input.dongleSerial, [
    input.address,
    input.function,
    ...serialBytes(input.deviceSerial),
    ...hiLo(input.base),
    ...hiLo(input.values.length),
    ...words,
  ]);
}

/** A single write's echo (for tests and the simulator): the register and the value the device took, after its serial. */
export function buildWriteResponse(input: {
  dongleSerial: string;
  address: number;
  deviceSerial: string;
  register: number;
  value: number;
}): Uint8Array {
  return transparent(input.dongleSerial, [
    input.address,
    ModbusFunction.writeSingle,
    ...serialBytes(input.deviceSerial),
    ...hiLo(input.register),
    ...hiLo(input.value),
  ]);
}

/** An error response (for the simulator): the function with its high bit set, the base and count refused, no values. */
export function buildErrorResponse(input: {
  dongleSerial: string;
  address: number;
  function: number;
  deviceSerial: string;
  base: number;
  count: number;
}): Uint8Array {
  return transparent(input.dongleSerial, [
    input.address,
    input.function | 0x80,
    ...serialBytes(input.deviceSerial),
    ...hiLo(input.base),
    ...hiLo(input.count),
  ]);
}

/**
 * A LAN-settings broadcast (for the simulator), as the captured dongles send them: ASCII
 * `addr,netmask,gateway` and line ends inside a transparent frame whose last two bytes are no
 * CRC of it.
 */
export function buildBroadcast(dongleSerial: string, text: string): Uint8Array {
  const frame = transparent(
    dongleSerial,
    Array.from(`${text}\r\n\r\n`, (char) => char.charCodeAt(0) & 0x7f),
  );
  frame[frame.length - 2] = (frame[frame.length - 2] ?? 0) ^ 0xff;
  frame[frame.length - 1] = (frame[frame.length - 1] ?? 0) ^ 0xff;
  return frame;
}

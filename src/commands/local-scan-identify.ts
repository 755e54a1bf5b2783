import {
  ChainDecoder,
  type DecodedDevice,
  type Detected,
  DongleSession,
  type Frame,
  type Read,
  SessionError,
} from "../local/index.js";
import { DETECTION_BANKS, IDENTITY } from "../sources/index.js";
import { systemClock } from "../time/index.js";
import { connectWithin } from "./local-scan-connect.js";

/** What a dongle said of the device behind it. */
export interface FoundDongle {
  readonly found: true;
  readonly host: string;
  readonly port: number;
  /** Empty when no frame carried it. */
  readonly dongleSerial: string;
  readonly kind: DecodedDevice["kind"];
  readonly model: string;
  /** The controller's serial: HR 13-17, else the one its answers carried. */
  readonly serial: string;
  /** Whether the model came from the identity registers or, without them, from the banks that answered. */
  readonly detectedFrom: Detected["from"];
}

/** A port that took the connection but whose controller told nothing: why (the first failure, in the session's words). */
export interface SilentPort {
  readonly found: false;
  readonly host: string;
  readonly port: number;
  readonly dongleSerial: string;
  readonly reason: string;
}

export interface IdentifyOptions {
  readonly connectMs: number;
  /** How long one request waits for its answer. */
  readonly answerMs: number;
}

/**
 * Asks the dongle at host:port who its controller (0x11) is: HR 0-59 first, then, while the model
 * is not told, the banks that tell it (until two go unanswered on a port that sent nothing at
 * all). It stops at the first connection failure (the session would try again later); every
 * frame the dongle sends, asked for or not, goes to one decoder, which gives the model and the
 * serial.
 */
export async function identifyDongle(
  host: string,
  port: number,
  options: IdentifyOptions,
): Promise<FoundDongle | SilentPort> {
  const decoder = new ChainDecoder();
  let dongleSerial = "";
  let framesHeard = 0;
  const heard = (frame: Frame): void => {
    framesHeard++;
    if (frame.kind === "heartbeat" || frame.kind === "response" || frame.kind === "error")
      dongleSerial ||= frame.dongleSerial;
    decoder.accept(frame);
  };
  const session = new DongleSession({
    host,
    port,
    clock: systemClock,
    requestTimeoutMs: options.answerMs,
    connect: connectWithin(options.connectMs),
    onFrame: heard,
  });
  let failure: string | undefined;
  let connectionFailed = false;
  let silentInARow = 0;
  const ask = async (read: Read): Promise<void> => {
    try {
      await session.read(read);
      silentInARow = 0;
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      failure ??= error.message;
      connectionFailed ||= error.kind === "connection";
      silentInARow = error.kind === "timeout" ? silentInARow + 1 : 0;
    }
  };
  // Two requests with no answer from a port that never sent a frame: nothing there speaks the protocol.
  const hopeless = (): boolean => connectionFailed || (silentInARow >= 2 && framesHeard === 0);
  session.start();
  try {
    await ask(IDENTITY);
    for (const bank of DETECTION_BANKS) {
      if (decoder.detect().model !== "Unknown" || hopeless()) break;
      await ask(bank);
    }
  } finally {
    session.close();
  }
  const controller = decoder.devices().find((device) => device.address === "0x11");
  if (!controller) return { found: false, host, port, dongleSerial, reason: failure ?? "no answer" };
  return {
    found: true,
    host,
    port,
    dongleSerial,
    kind: controller.kind,
    model: controller.model,
    serial: controller.serial,
    detectedFrom: decoder.detect().from,
  };
}

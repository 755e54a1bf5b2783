import {
  CLOCK_COUNT,
  CLOCK_FIRST,
  ControlMapError,
  clockWords,
  clockWriteMap,
  SessionError,
  wallOfWords,
} from "../../local/index.js";
import type { ClockControl } from "../clock-port.js";
import type { PathOutcome } from "../control-ports.js";
import type { LocalDongle } from "./dongle.js";

export interface LocalClockOptions {
  /** The dongle a controller serial answers on (after discovery). */
  readonly dongleOf: (serial: string) => LocalDongle | undefined;
}

/**
 * The clock of a device on the LAN: HR 35-40 written one by one (0x06, as every write here) with
 * the clock sync's own map, which allows those six registers and nothing else, then read back.
 */
export function localClockControl(options: LocalClockOptions): ClockControl {
  return {
    carries: (serial) => options.dongleOf(serial)?.model !== undefined,
    async setClock(serial, wallNow, signal): Promise<PathOutcome<number>> {
      const dongle = options.dongleOf(serial);
      const detected = dongle?.model;
      if (!dongle || !detected)
        return { outcome: "refused", reason: `no dongle under local: answers for ${serial}: its clock cannot be set` };
      const map = clockWriteMap(detected.model);
      let written = 0;
      try {
        for (let index = 0; index < CLOCK_COUNT; index++) {
          const word = clockWords(wallNow())[index] ?? 0;
          await givenUpOnAbort(dongle.writeHolding(map, CLOCK_FIRST + index, word, signal), signal);
          written++;
        }
        const shown = wallOfWords(await givenUpOnAbort(dongle.readHolding(CLOCK_FIRST, CLOCK_COUNT, signal), signal));
        if (shown === undefined) return { outcome: "open", reason: "its clock registers read back no date" };
        return { outcome: "done", value: shown };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const nothingSent =
          written === 0 &&
          (error instanceof ControlMapError ||
            (error instanceof SessionError &&
              (error.kind === "refused" || (error.kind === "connection" && error.unsent))));
        return nothingSent
          ? { outcome: "refused", reason: message }
          : {
              outcome: "open",
              reason: `${message} (${written} of the clock's ${CLOCK_COUNT} registers written before)`,
            };
      }
    },
  };
}

/**
 * A write to the dongle waits for its answer (or its timeout) even when the daemon stops: the
 * session is closed only after the gate. So a stop gives the sync up at once; the write left in
 * flight ends with the session, and the sync's outcome says it may have been set.
 */
function givenUpOnAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  work.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error("the daemon is stopping"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

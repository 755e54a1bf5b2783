import { ChainDecoder, type DecodedDevice } from "../../../src/local/decode.js";
import type { Frame } from "../../../src/local/frame.js";
import { DongleSession, type Read } from "../../../src/local/session.js";
import type { SimDongle } from "../../../src/simulator/local/dongle.js";
import { VirtualClock } from "../../../src/time/virtual-clock.js";

/**
 * Runs `work` while moving the session's own virtual clock (its gaps and timeouts) a step per
 * turn of the event loop, so real socket I/O and virtual timers both go on; no wall-clock sleep.
 */
export async function driven<T>(clock: VirtualClock, work: Promise<T>, stepMs = 300): Promise<T> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  work.then(
    (value) => {
      outcome = { ok: true, value };
    },
    (error: unknown) => {
      outcome = { ok: false, error };
    },
  );
  while (!outcome) {
    clock.advance(stepMs);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** A session on a simulated dongle (127.0.0.1), with its own virtual clock and every frame it heard. */
export function openSession(port: number, extra: Partial<ConstructorParameters<typeof DongleSession>[0]> = {}) {
  const clock = new VirtualClock(0);
  const frames: Frame[] = [];
  const session = new DongleSession({
    host: "127.0.0.1",
    port,
    clock,
    random: () => 0,
    requestTimeoutMs: 1_000_000_000,
    onFrame: (frame) => frames.push(frame),
    ...extra,
  });
  session.start();
  return { session, clock, frames };
}

/** Every register block the dongle's chain answers, as the session reads them (in requests of at most 60). */
export function readsOf(dongle: SimDongle): Read[] {
  return dongle.chain.devices.flatMap((device) => [
    ...device.holding.map(
      (range): Read => ({ address: device.address, function: 3, base: range.from, count: range.to - range.from + 1 }),
    ),
    ...device.input.map(
      (range): Read => ({ address: device.address, function: 4, base: range.from, count: range.to - range.from + 1 }),
    ),
  ]);
}

/** Reads all of a dongle's registers over TCP and decodes them as src/local/ does a capture. */
export async function decodeDongle(dongle: SimDongle): Promise<DecodedDevice[]> {
  const { session, clock, frames } = openSession(dongle.port);
  try {
    for (const read of readsOf(dongle)) await driven(clock, session.read(read));
  } finally {
    session.close();
  }
  const decoder = new ChainDecoder();
  for (const frame of frames) decoder.accept(frame);
  return decoder.devices();
}

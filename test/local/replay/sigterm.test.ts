import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/simulator/clock.js";
import { startTestBroker, type TestBroker } from "../../helpers/broker.js";
import { killDaemon, startDaemonProcess } from "../../helpers/daemon-process.js";
import { observe } from "../../helpers/mqtt-observer.js";
import { ReplayDongle } from "../../helpers/replay-dongle.js";
import { CAPTURE_FILES, type CaptureName, captureText } from "../captures.js";
import { localDaemonYaml } from "./replay-daemon.js";

/*
 * Issue 34: `energy2mqtt run` itself, as a process, with `source: local` against each real
 * capture's replay dongle: it publishes the controller's state and exits 0 on SIGTERM, whatever
 * blocks the capture leaves unanswered (the identity bank included). Real time: the process
 * reads the system clock, so the dongle's timeline does too.
 */

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
}, 30_000);
afterAll(async () => {
  await broker?.stop();
});

describe("energy2mqtt run on each real capture", () => {
  it.concurrent.each(Object.keys(CAPTURE_FILES) as CaptureName[])(
    "%s: publishes its state, then exits 0 on SIGTERM",
    async (name) => {
      const clock = new SimClock({ speed: 1 });
      const started = clock.now();
      const dongle = new ReplayDongle({
        text: captureText(name),
        clock,
        captureMsPerClockMs: 1,
        spanMs: 120_000,
        playhead: () => clock.now() - started,
      });
      const port = await dongle.start();
      const base = `e2m${process.pid}run${name.toLowerCase()}`;
      const watch = await observe(broker.url, [`${base}/#`]);
      const daemon = startDaemonProcess(localDaemonYaml(broker.url, base, port, "replay.db"));
      try {
        const state = await watch.waitFor(
          (m) => /^[^/]+\/[a-z0-9]+$/.test(m.topic) && !m.topic.includes("/w") && m.payload.startsWith('{"'),
          60_000,
        );
        expect(JSON.parse(state.payload)).toEqual(expect.any(Object));
        const { code } = await daemon.stop("SIGTERM");
        expect(code).toBe(0);
      } finally {
        killDaemon(daemon);
        await watch.close();
        await dongle.stop();
      }
    },
    90_000,
  );
});

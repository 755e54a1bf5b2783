import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/simulator/clock.js";
import { freePort, startTestBroker, type TestBroker } from "../../helpers/broker.js";
import { type DaemonProcess, startDaemonProcess } from "../../helpers/daemon-process.js";
import { observe } from "../../helpers/mqtt-observer.js";
import { ReplayDongle } from "../../helpers/replay-dongle.js";
import { captureText } from "../captures.js";
import { localDaemonYaml } from "./replay-daemon.js";

/*
 * Issue 35 item 8: `energy2mqtt run` with `source: local` whose only dongle is not up yet (it
 * boots after the daemon, as after a power cut). It used to exit 1, a restart loop under Docker or
 * the add-on. Now it keeps running, says so, and announces the inverter once its dongle answers.
 */

describe("source: local started before its dongle", () => {
  let broker: TestBroker;
  let daemon: DaemonProcess | undefined;
  let dongle: ReplayDongle | undefined;
  beforeAll(async () => {
    broker = await startTestBroker();
  }, 30_000);
  afterAll(async () => {
    if (daemon?.child.exitCode === null) await daemon.stop("SIGKILL");
    await dongle?.stop();
    await broker?.stop();
  });

  it("keeps running and says why, announces the inverter once its dongle answers, and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const base = `e2m${process.pid}later`;
    const watch = await observe(broker.url, [`${base}/#`, `ha${base}/#`]);
    try {
      daemon = startDaemonProcess(localDaemonYaml(broker.url, base, port, "later.db"));
      // Said before the bridge was up, so on bridge/health's last_error rather than bridge/logging.
      const told = await watch.waitFor(
        (m) => m.topic === `${base}/bridge/health` && m.payload.includes("no dongle under local: answered yet"),
        30_000,
      );
      expect(JSON.parse(told.payload).devices).toEqual({});
      expect(daemon.child.exitCode).toBeNull();

      const clock = new SimClock({ speed: 1 });
      const started = clock.now();
      dongle = new ReplayDongle({
        text: captureText("gen2"),
        clock,
        captureMsPerClockMs: 1,
        playhead: () => clock.now() - started,
      });
      await dongle.start(port);
      // The session retries at a back-off of at most a minute and a fifth: the inverter comes then.
      const announced = await watch.waitFor((m) => m.topic.startsWith(`ha${base}/sensor/ea2302g000/`), 90_000);
      expect(JSON.parse(announced.payload)).toMatchObject({ device: { serial_number: "EA2302G000" } });
      const state = await watch.waitFor(
        (m) => m.topic === `${base}/ea2302g000` && m.payload.includes("battery_soc"),
        30_000,
      );
      expect(JSON.parse(state.payload).battery_soc).toEqual(expect.any(Number));
      expect(daemon.child.exitCode).toBeNull();
      // The dongle's absence was said once, not at every reconnect attempt.
      const away = watch.messages.filter(
        (m) => m.topic === `${base}/bridge/logging` && m.payload.includes("waiting to reconnect"),
      );
      expect(away.length).toBeLessThanOrEqual(1);
      const { code } = await daemon.stop("SIGTERM");
      expect(code).toBe(0);
    } finally {
      await watch.close();
    }
  }, 150_000);
});

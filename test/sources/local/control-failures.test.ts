import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SimClock } from "../../../src/simulator/clock.js";
import type { SimDongle } from "../../../src/simulator/local/dongle.js";
import { type LocalSource, localControl, localSource } from "../../../src/sources/index.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../../helpers/simulator.js";

/*
 * localControl's answers when the LAN misbehaves, in the daemon's outcomes: a write whose echo is
 * lost on the wire (the simulator's corrupt_frames fault) is sent once only, never again (issue 35
 * item 4), and answers open (it may have applied), as the cloud's timeout does.
 */

const INVERTER = "SD2024G001";

let sim: Awaited<ReturnType<typeof startTestSimulator>>;
let source: LocalSource;
let dongle: SimDongle;

beforeAll(async () => {
  sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
  const found = sim.simulator.local?.find(INVERTER);
  if (!found) throw new Error(`no dongle for ${INVERTER}`);
  dongle = found;
  source = localSource({
    dongles: [{ host: "127.0.0.1", port: dongle.port, passive: false, gap_ms: SIM_GAP_MS }],
    clock: new SimClock({ start: MIDDAY }),
    timezone: "Europe/London",
    timeoutMs: 1_500,
    writes: true,
  });
  await source.discover();
}, 30_000);

afterAll(async () => {
  source?.close();
  await sim?.stop();
});

const control = () => localControl({ dongleOf: (serial) => source.dongleOf(serial), answerMs: 5_000 });
const corrupt = (frames: number) => sim.admin(`/dongles/${INVERTER}`, { corrupt_frames: frames });

describe("localControl when the LAN loses an echo", () => {
  it("answers open (may have applied) when the echo is lost, and sends the write only once", async () => {
    const before = dongle.writesReceived.length;
    await corrupt(1);
    const answer = await control().inverters.writeSetting(INVERTER, 71, 24);
    expect(answer).toMatchObject({ outcome: "open" });
    expect(answer).not.toHaveProperty("code");
    expect(answer.outcome === "done" ? "" : answer.reason).toBe(
      // The echo came, damaged: said so, rather than "no answer".
      "no whole answer (1 damaged frame(s): bad CRC or garbage) from device 0x11 for the write of 24 to holding register 110 within 1500 ms; it may or may not have been applied, and it is not sent again",
    );
    expect(dongle.writesReceived.slice(before).map((write) => [write.register, write.value])).toEqual([[110, 24]]);
    // It was applied: the read-back the gate makes next says so.
    expect(await control().inverters.readSetting(INVERTER, 71)).toMatchObject({ outcome: "done", value: 24 });
  });

  it("writes the next change as usual after a lost echo, in one frame", async () => {
    const before = dongle.writesReceived.length;
    const answer = await control().inverters.writeSetting(INVERTER, 71, 26);
    expect(answer).toMatchObject({ outcome: "done", value: 26 });
    expect(dongle.writesReceived.slice(before).map((write) => [write.register, write.value])).toEqual([[110, 26]]);
    expect(await sim.clientFor("owner").inverterControl.readSetting(INVERTER, 71)).toMatchObject({ value: 26 });
  });

  it("refuses before sending (nothing applied) a value outside the setting's rules or a setting with no register", async () => {
    const before = dongle.writesReceived.length;
    const refused = await control().inverters.writeSetting(INVERTER, 71, 2);
    expect(refused).toMatchObject({ outcome: "refused" });
    const notOffered = await control().inverters.writeSetting(INVERTER, 96, 1);
    expect(notOffered).toMatchObject({ outcome: "refused" });
    expect(notOffered.outcome === "done" ? "" : notOffered.reason).toBe(
      "setting 96 has no register on the Hybrid Gen1 SD2024G001: it is not offered over the LAN",
    );
    expect(dongle.writesReceived).toHaveLength(before);
  });
});

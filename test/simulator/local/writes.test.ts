import { afterEach, describe, expect, it } from "vitest";
import { startTestSimulator } from "../../helpers/simulator.js";
import { driven, openSession } from "./read-dongle.js";

type Sim = Awaited<ReturnType<typeof startTestSimulator>>;
let sim: Sim | undefined;

afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

async function started(scenario: string) {
  sim = await startTestSimulator({ scenario, speed: 0, localPort: 0, localResponseDelayMs: 0 });
  const dongle = sim.simulator.local?.dongles[0];
  if (!dongle) throw new Error("no dongle");
  const { session, clock } = openSession(dongle.port, { requestTimeoutMs: 5_000 });
  return { sim, dongle, session, clock, serial: dongle.chain.deviceSerial };
}

describe("a simulated dongle takes single-register writes to the settings the cloud serves", () => {
  it("applies a write to the reserve (HR 110), echoes it, and the cloud reads the new value", async () => {
    const { sim, dongle, session, clock, serial } = await started("hybrid");
    try {
      await driven(clock, session.write({ address: 0x11, register: 110, value: 23 }));
      const read = await sim.clientFor("owner").inverterControl.readSetting(serial, 71);
      expect(read).toEqual(expect.objectContaining({ ok: true, value: 23 }));
      expect(dongle.writesReceived).toEqual([
        expect.objectContaining({ register: 110, value: 23, outcome: "applied" }),
      ]);
      expect(dongle.stats).toEqual(expect.objectContaining({ writes: 1, writesApplied: 1, writesRefused: 0 }));
    } finally {
      session.close();
    }
  });

  it("shows a value the cloud wrote in the holding register, encoded as the register holds it", async () => {
    const { sim, session, clock, serial } = await started("hybrid");
    try {
      const client = sim.clientFor("owner");
      expect(await client.inverterControl.writeSetting(serial, 64, "05:30")).toEqual(
        expect.objectContaining({ ok: true }),
      );
      expect(await client.inverterControl.writeSetting(serial, 66, true)).toEqual(
        expect.objectContaining({ ok: true }),
      );
      const [enableCharge] = await driven(clock, session.read({ address: 0x11, function: 3, base: 96, count: 1 }));
      const [start] = await driven(clock, session.read({ address: 0x11, function: 3, base: 94, count: 1 }));
      expect(enableCharge).toBe(1);
      expect(start).toBe(530);
    } finally {
      session.close();
    }
  });

  it("answers an error response to a register outside the model's allowlist, and changes nothing", async () => {
    const { dongle, session, clock } = await started("hybrid");
    try {
      await expect(driven(clock, session.write({ address: 0x11, register: 162, value: 1 }))).rejects.toThrow(
        "device 0x11 refused the write of 1 to holding register 162 (error response)",
      );
      await expect(driven(clock, session.write({ address: 0x11, register: 246, value: 100 }))).rejects.toThrow(
        /refused the write of 100 to holding register 246/,
      );
    } finally {
      session.close();
    }
    expect(dongle.writesReceived.map((write) => [write.register, write.outcome])).toEqual([
      [162, expect.stringMatching(/energy-total reset/)],
      [246, expect.stringMatching(/not in the Hybrid Gen1's allowlist/)],
    ]);
  });

  it("refuses a value the setting's rules forbid with an error response (reserve 2 %, below its 4 %)", async () => {
    const { sim, session, clock, serial } = await started("hybrid");
    try {
      await expect(driven(clock, session.write({ address: 0x11, register: 110, value: 2 }))).rejects.toThrow(
        /refused the write of 2 to holding register 110/,
      );
      const read = await sim.clientFor("owner").inverterControl.readSetting(serial, 71);
      expect(read.ok && read.value).not.toBe(2);
    } finally {
      session.close();
    }
  });

  it("takes an EMS's plant enable (HR 2040) and export slot 1 (HR 2062-2064) into the presets the cloud serves, and refuses HR 2072", async () => {
    sim = await startTestSimulator({ scenario: "plant-ems", speed: 0, localPort: 0, localResponseDelayMs: 0 });
    const dongle = sim.simulator.local?.dongles.find((one) => one.chain.kind === "ems");
    if (!dongle) throw new Error("no EMS dongle");
    const { session, clock } = openSession(dongle.port, { requestTimeoutMs: 5_000 });
    const serial = dongle.chain.deviceSerial;
    try {
      for (const [register, value] of [
        [2040, 1],
        [2062, 1630],
        [2063, 1845],
        [2064, 25],
      ] as const)
        await driven(clock, session.write({ address: 0x11, register, value }));
      await expect(driven(clock, session.write({ address: 0x11, register: 2072, value: 1 }))).rejects.toThrow(
        /refused the write of 1 to holding register 2072/,
      );
      const cloud = sim.clientFor("owner").inverterControl;
      expect(await cloud.presetValues(serial, "plant-ems-enable-control")).toMatchObject({ enabled: true });
      const exported = await cloud.presetValues(serial, "timed-export");
      expect(exported.enabled).toBe(true);
      expect((exported.slots as unknown[])[0]).toEqual({ start_time: "16:30", end_time: "18:45", percent_limit: 25 });
      // And the registers hold what the cloud serves.
      expect(await driven(clock, session.read({ address: 0x11, function: 3, base: 2062, count: 3 }))).toEqual([
        1630, 1845, 25,
      ]);
    } finally {
      session.close();
    }
    expect(dongle.writesReceived.at(-1)).toEqual(
      expect.objectContaining({ register: 2072, outcome: expect.stringMatching(/not in the EMS's allowlist/) }),
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimDongle } from "../../../src/simulator/local/dongle.js";
import { MIDDAY, startTestSimulator } from "../../helpers/simulator.js";
import { decodeDongle } from "./read-dongle.js";

/*
 * The simulator's battery calibration (issue 38): started and stopped at its admin endpoint, and
 * read by a session over TCP in HR 29, decoded as the daemon does.
 */

const INVERTER = "SD2024G001";
const EMS = "EM2024E001";

let sim: Awaited<ReturnType<typeof startTestSimulator>>;
let dongle: SimDongle;

beforeAll(async () => {
  sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
  const found = sim.simulator.local?.find(INVERTER);
  if (!found) throw new Error(`no dongle for ${INVERTER}`);
  dongle = found;
}, 30_000);

afterAll(async () => {
  await sim?.stop();
});

const admin = async (path: string, body?: unknown, method = "POST") => {
  const base = sim.simulator.url.replace(/\/v1$/, "");
  const response = await fetch(`${base}/__admin${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: unknown } };
};

const calibrationOverTheLan = async () =>
  (await decodeDongle(dongle)).find((device) => device.address === "0x11")?.state.calibration;

describe("the simulator's battery calibration", () => {
  it("is off until started, then its stage is in HR 29 over the LAN, and off again once stopped", async () => {
    expect(await calibrationOverTheLan()).toBe("off");
    const started = await admin(`/inverters/${INVERTER.toLowerCase()}/calibration`, { running: true });
    expect(started).toMatchObject({ status: 200, body: { data: { serial: INVERTER, stage: "discharge" } } });
    expect(await calibrationOverTheLan()).toBe("discharge");
    await admin(`/inverters/${INVERTER}/calibration`, { running: true, stage: "set upper limit" });
    expect(await calibrationOverTheLan()).toBe("set upper limit");
    const shown = await admin(`/inverters/${INVERTER}/calibration`, undefined, "GET");
    expect(shown.body.data).toEqual({
      serial: INVERTER,
      stage: "set upper limit",
      started_at: new Date(MIDDAY).toISOString(),
    });
    await admin(`/inverters/${INVERTER}/calibration`, { running: false });
    expect(await calibrationOverTheLan()).toBe("off");
  });

  it("refuses a body it cannot read, a running stage of off, and a device that runs none of its own", async () => {
    const bad = await admin(`/inverters/${INVERTER}/calibration`, { running: "yes" });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.errors)).toMatch(/running/);
    expect((await admin(`/inverters/${INVERTER}/calibration`, { running: true, stage: "off" })).status).toBe(422);
    expect((await admin(`/inverters/${EMS}/calibration`, { running: true })).status).toBe(404);
    expect(await calibrationOverTheLan()).toBe("off");
  });
});

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ControlGate } from "../../../src/control/index.js";
import type { SimDongle } from "../../../src/simulator/local/dongle.js";
import type { Inventory } from "../../../src/sources/inventory.js";
import { type LanGate, startLanGate } from "../../helpers/lan-gate.js";
import { MIDDAY, startTestSimulator } from "../../helpers/simulator.js";

/*
 * The battery charge and discharge power limits over the LAN: the cloud's battery-operating-range
 * fields (W) as HR 111/112, which hold a C-rate in hundredths of the battery's capacity. A value
 * is taken to the nearest register step, so the same watts asked twice are written once.
 */

type Sim = Awaited<ReturnType<typeof startTestSimulator>>;

let sim: Sim;
let dongle: SimDongle;
let lan: LanGate;
let gate: ControlGate;
let inventory: Inventory;
let serial: string;
const dir = mkdtempSync(join(tmpdir(), "e2m-battery-rates-"));
const who = { via: "cli", name: "test" } as const;
const RANGE = "battery-operating-range";

beforeAll(async () => {
  sim = await startTestSimulator({
    scenario: "hybrid",
    speed: 0,
    start: MIDDAY,
    localPort: 0,
    localResponseDelayMs: 0,
  });
  const found = sim.simulator.local?.dongles[0];
  if (!found) throw new Error("no dongle in the hybrid scenario");
  dongle = found;
  lan = await startLanGate({ ports: [dongle.port], dir, storeFile: "rates.db", start: MIDDAY });
  ({ gate, inventory } = lan);
  serial = dongle.chain.deviceSerial;
}, 30_000);

afterAll(async () => {
  await sim.stop();
  lan.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Watts a register word is on this house's battery: capacity kWh × 10. */
const step = (): number => {
  const kwh = inventory.inverters[0]?.batteryCapacityKwh;
  if (kwh === undefined) throw new Error("the LAN found no battery capacity");
  return Math.round(kwh * 10);
};
const audit = () => lan.store.audit.recent({ limit: 1 })[0];
const writes = () => dongle.writesReceived.map((write) => [write.register, write.value, write.outcome]);

describe("battery charge and discharge power limits over the LAN (HR 111/112)", () => {
  it("offers them in battery-operating-range, in W, 0 to the 0.5 C word's watts, in register steps", () => {
    const preset = inventory.inverters[0]?.presets.find((one) => one.identifier === RANGE);
    expect(preset?.parameters.max_charge_watts?.validation).toEqual(
      expect.arrayContaining([`between:0,${50 * step()}`, `multiple_of:${step()}`]),
    );
    expect(preset?.parameters.max_discharge_watts?.validation).toContain(`multiple_of:${step()}`);
  });

  it("writes 2600 W as the nearest C-rate word, reads it back, audits it; the same 2600 W again sends nothing", async () => {
    const word = Math.round(2600 / step());
    const first = await gate.apply({ kind: "preset", serial, preset: RANGE, fields: { max_charge_watts: 2600 } }, who);
    expect(first).toMatchObject({ ok: true, verified: true });
    expect(writes()).toEqual([[111, word, "applied"]]);
    expect(audit()).toMatchObject({ ok: true, action: `preset:${RANGE}`, target: serial, verified: true });
    const again = await gate.apply({ kind: "preset", serial, preset: RANGE, fields: { max_charge_watts: 2600 } }, who);
    expect(again.ok).toBe(true);
    expect(again.message).toMatch(/already holds/);
    expect(writes()).toEqual([[111, word, "applied"]]);
  });

  it("writes the discharge limit to HR 112", async () => {
    const sent = dongle.writesReceived.length;
    const outcome = await gate.apply(
      { kind: "preset", serial, preset: RANGE, fields: { max_discharge_watts: 10 * step() } },
      who,
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(writes().slice(sent)).toEqual([[112, 10, "applied"]]);
  });

  it("refuses watts above the 0.5 C word's, audited, with nothing framed", async () => {
    const sent = dongle.writesReceived.length;
    const outcome = await gate.apply(
      { kind: "preset", serial, preset: RANGE, fields: { max_charge_watts: 60 * step() } },
      who,
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/max_charge_watts/);
    expect(audit()).toMatchObject({ ok: false, message: outcome.message });
    expect(dongle.writesReceived.length).toBe(sent);
    expect(dongle.stats.writes).toBe(sent);
  });
});

import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { modbusCharger } from "../../../src/evc/index.js";
import { startTestSimulator } from "../../helpers/simulator.js";
import { TestCentralSystem } from "./central-system.js";

const ID = "EVC-SIM-1";
const PASSWORD = "pw-1";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe("the simulator's EV chargers over OCPP and Modbus, with the admin API", () => {
  it("opens a charge point and a Modbus server per charger, and the admin API plugs the car and drops the link", async () => {
    const central = new TestCentralSystem({ [ID]: PASSWORD });
    const port = await central.listen();
    cleanup.push(() => central.close());
    const sim = await startTestSimulator({
      speed: 0,
      ocpp: {
        url: `ws://127.0.0.1:${port}`,
        chargePoints: [{ id: ID, password: PASSWORD }],
        backoff: { initialDelayMs: 20, maxDelayMs: 100 },
      },
      evcModbusPort: 0,
    });
    cleanup.push(() => sim.stop());
    const record = [...sim.simulator.world.chargers.values()][0];
    if (!record) throw new Error("the demo scenario has no EV charger");
    const clock = sim.simulator.clock;
    const step = () => clock.advance(1000);

    await vi.waitFor(() => expect(central.calls("BootNotification")).toHaveLength(1));
    expect(central.calls("BootNotification")[0]?.params.chargePointSerialNumber).toBe(
      record.model.info().serial_number,
    );
    expect(await sim.admin("/ocpp", undefined, "GET")).toMatchObject({
      data: [{ id: ID, uuid: record.uuid, connected: true }],
    });

    // The car, plugged in by the admin API, shows over OCPP, over Modbus and in the cloud alike.
    await sim.admin(`/ev-chargers/${record.uuid}/car`, { plugged: true, soc_percent: 40 });
    await vi.waitFor(() => {
      step();
      expect(central.statuses().at(-1)).toBe(record.model.info().status);
    });
    const modbus = sim.simulator.evc?.modbusOf(record.uuid);
    if (!modbus) throw new Error("no Modbus server");
    const evc = modbusCharger({
      host: "127.0.0.1",
      port: modbus.port,
      clock,
      logger: pino({ level: "silent" }),
      readBackDelayMs: 0,
    });
    cleanup.push(() => evc.close());
    const reading = await evc.read();
    expect(reading.carConnected).toBe(true);
    expect(reading.serial).toBe(record.model.info().serial_number);

    // The admin API's Modbus fault.
    expect(await sim.admin(`/ev-chargers/${record.uuid}/modbus`, { revert_after_s: 5 })).toMatchObject({
      data: { uuid: record.uuid, port: modbus.port, faults: { revert_after_s: 5 } },
    });

    // The link dropped for ten simulated minutes, then back.
    await sim.admin(`/ocpp/${ID}`, { connected: false });
    await vi.waitFor(() => expect(central.clients.size).toBe(0));
    clock.advance(600_000);
    await sim.admin(`/ocpp/${ID}`, { connected: true });
    await vi.waitFor(() => expect(central.connections).toBe(2));
  });
});

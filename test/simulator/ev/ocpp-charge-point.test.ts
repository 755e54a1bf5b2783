import { afterEach, describe, expect, it, vi } from "vitest";
import { SimClock } from "../../../src/simulator/clock.js";
import { OCPP_ACTOR, OcppChargePoint } from "../../../src/simulator/ev/ocpp-charge-point.js";
import { TestCentralSystem } from "./central-system.js";
import { ACTOR, charger, info, START, send, sessions } from "./helpers.js";

const ID = "EVC-DRIVEWAY";
const PASSWORD = "s3cret-evc";
const SERIAL = "GEEVC2301234";

interface Sample {
  value: string;
  measurand: string;
}

function samples(params: Record<string, unknown>): Record<string, number> {
  const meterValue = params.meterValue as { sampledValue: Sample[] }[];
  return Object.fromEntries((meterValue[0]?.sampledValue ?? []).map((s) => [s.measurand, Number(s.value)]));
}

/** The differences between neighbours. */
function steps(values: number[]): number[] {
  return values.slice(1).map((v, i) => v - (values[i] ?? 0));
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(meterValueIntervalS = 60) {
  const central = new TestCentralSystem({ [ID]: PASSWORD });
  const port = await central.listen();
  cleanup.push(() => central.close());
  const clock = new SimClock({ start: START, speed: 0 });
  const model = charger();
  // No plug and go: a plugged-in car waits (Preparing) for a start, as with a central system.
  send(model, "set-plug-and-go", { enabled: false });
  send(model, "change-mode", { mode: "Boost" });
  const local = model.local();
  const point = new OcppChargePoint({
    url: `ws://127.0.0.1:${port}`,
    id: ID,
    password: PASSWORD,
    charger: local,
    clock,
    meterValueIntervalS,
    backoff: { initialDelayMs: 20, maxDelayMs: 100 },
    callTimeoutMs: 5000,
  });
  point.start();
  cleanup.push(() => point.close());
  return { central, port, clock, model, local, point };
}

/** Moves the clock by the charge point's poll step until `check` passes (status changes need a look). */
async function settle(clock: SimClock, check: () => void): Promise<void> {
  await vi.waitFor(
    () => {
      clock.advance(1000);
      check();
    },
    { timeout: 8000, interval: 5 },
  );
}

describe("the simulated charger as an OCPP 1.6J charge point", () => {
  it("boots with the charger's serial and reports Available", async () => {
    const { central, clock, point } = await setup();
    await vi.waitFor(() => expect(central.calls("BootNotification")).toHaveLength(1));
    expect(central.calls("BootNotification")[0]?.params).toMatchObject({
      chargePointSerialNumber: SERIAL,
      chargePointVendor: "GivEnergy",
    });
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));
    expect(point.connected).toBe(true);
  });

  it("rejects a wrong password", async () => {
    const central = new TestCentralSystem({ [ID]: "other" });
    const port = await central.listen();
    cleanup.push(() => central.close());
    const clock = new SimClock({ start: START, speed: 0 });
    const point = new OcppChargePoint({
      url: `ws://127.0.0.1:${port}`,
      id: ID,
      password: PASSWORD,
      charger: charger().local(),
      clock,
      backoff: { initialDelayMs: 20, maxDelayMs: 100 },
    });
    point.start();
    cleanup.push(() => point.close());
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(central.connections).toBe(0);
    expect(point.connected).toBe(false);
  });

  it("beats at the interval the central system answered, on the simulator's clock", async () => {
    const { central, clock } = await setup();
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));
    expect(central.calls("Heartbeat")).toHaveLength(0);
    clock.advance(300_000);
    await vi.waitFor(() => expect(central.calls("Heartbeat")).toHaveLength(1));
    clock.advance(300_000);
    await vi.waitFor(() => expect(central.calls("Heartbeat")).toHaveLength(2));
  });

  it("charges on a remote start, samples the meter every N simulated seconds, follows a TxProfile and stops on a remote stop", async () => {
    const { central, clock, local, model } = await setup(30);
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));

    local.plug(true);
    await settle(clock, () => expect(central.statuses()).toEqual(["Available", "Preparing"]));

    await expect(central.call(ID, "RemoteStartTransaction", { connectorId: 1, idTag: "TAG-42" })).resolves.toEqual({
      status: "Accepted",
    });
    await vi.waitFor(() => expect(central.calls("StartTransaction")).toHaveLength(1));
    expect(central.calls("StartTransaction")[0]?.params).toMatchObject({ connectorId: 1, idTag: "TAG-42" });
    await settle(clock, () => expect(central.statuses()).toEqual(["Available", "Preparing", "Charging"]));
    // The cloud's view of the same charger agrees.
    expect(info(model).status).toBe("Charging");
    expect(sessions(model)[0]).toMatchObject({ started_by: "TAG-42", stopped_by: null });

    // Meter values every 30 simulated seconds: Boost at 32 A on one phase of 230 V.
    const before = central.calls("MeterValues").length;
    for (let i = 1; i <= 3; i++) {
      await clock.advanceAsync(30_000);
      await vi.waitFor(() => expect(central.calls("MeterValues")).toHaveLength(before + i));
    }
    const meterValues = central.calls("MeterValues").slice(before);
    const times = meterValues.map((r) =>
      Date.parse((r.params.meterValue as { timestamp: string }[])[0]?.timestamp ?? ""),
    );
    expect(steps(times)).toEqual([30_000, 30_000]);
    const first = samples(meterValues[0]?.params ?? {});
    expect(first["Power.Active.Import"]).toBe(7360);
    expect(first["Current.Import"]).toBe(32);
    expect(first.SoC).toBeGreaterThan(0);
    expect(meterValues[0]?.params.transactionId).toBe(1);
    const energy = meterValues.map((r) => samples(r.params)["Energy.Active.Import.Register"] ?? 0);
    // 7.36 kW for 30 s is about 61 Wh.
    for (const wh of steps(energy)) {
      expect(wh).toBeGreaterThan(55);
      expect(wh).toBeLessThan(67);
    }

    // A TxProfile of 10 A lowers the power the car draws.
    await expect(
      central.call(ID, "SetChargingProfile", {
        connectorId: 1,
        csChargingProfiles: {
          chargingProfileId: 7,
          transactionId: 1,
          stackLevel: 0,
          chargingProfilePurpose: "TxProfile",
          chargingProfileKind: "Relative",
          chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: 10 }] },
        },
      }),
    ).resolves.toEqual({ status: "Accepted" });
    await vi.waitFor(() => expect(model.powerW()).toBe(2300));
    const count = central.calls("MeterValues").length;
    await clock.advanceAsync(30_000);
    await vi.waitFor(() => expect(central.calls("MeterValues")).toHaveLength(count + 1));
    expect(samples(central.calls("MeterValues").at(-1)?.params ?? {})["Power.Active.Import"]).toBe(2300);

    // Clearing it gives the charger's own 32 A back.
    await expect(central.call(ID, "ClearChargingProfile", { id: 7 })).resolves.toEqual({ status: "Accepted" });
    await vi.waitFor(() => expect(model.powerW()).toBe(7360));

    await expect(central.call(ID, "RemoteStopTransaction", { transactionId: 1 })).resolves.toEqual({
      status: "Accepted",
    });
    await vi.waitFor(() => expect(central.calls("StopTransaction")).toHaveLength(1));
    expect(central.calls("StopTransaction")[0]?.params).toMatchObject({ transactionId: 1, reason: "Remote" });
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Finishing"));
    expect(sessions(model)[0]).toMatchObject({ started_by: "TAG-42", stopped_by: OCPP_ACTOR, stop_reason: "Remote" });

    // No meter values after the stop.
    const after = central.calls("MeterValues").length;
    await clock.advanceAsync(90_000);
    expect(central.calls("MeterValues")).toHaveLength(after);

    local.plug(false);
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Available"));
  });

  it("holds a TxDefaultProfile for the next transaction, under a ChargePointMaxProfile in watts", async () => {
    const { central, clock, local, model } = await setup();
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));
    const profile = (id: number, purpose: string, unit: string, limit: number) => ({
      connectorId: 0,
      csChargingProfiles: {
        chargingProfileId: id,
        stackLevel: 0,
        chargingProfilePurpose: purpose,
        chargingProfileKind: "Absolute",
        chargingSchedule: { chargingRateUnit: unit, chargingSchedulePeriod: [{ startPeriod: 0, limit }] },
      },
    });
    await expect(central.call(ID, "SetChargingProfile", profile(1, "TxDefaultProfile", "A", 16))).resolves.toEqual({
      status: "Accepted",
    });
    // Without a transaction a TxProfile has nothing to apply to.
    await expect(central.call(ID, "SetChargingProfile", profile(2, "TxProfile", "A", 8))).resolves.toEqual({
      status: "Rejected",
    });
    local.plug(true);
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Preparing"));
    await central.call(ID, "RemoteStartTransaction", { idTag: "TAG-42" });
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Charging"));
    expect(model.powerW()).toBe(3680);
    // 2760 W on one phase of 230 V is 12 A: lower than the default profile's 16 A.
    await central.call(ID, "SetChargingProfile", profile(3, "ChargePointMaxProfile", "W", 2760));
    await vi.waitFor(() => expect(model.powerW()).toBe(2760));
  });

  it("rejects a remote start without a car, and answers a cloud start with StartTransaction", async () => {
    const { central, clock, local, model } = await setup();
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));
    await expect(central.call(ID, "RemoteStartTransaction", { idTag: "TAG-42" })).resolves.toEqual({
      status: "Rejected",
    });
    local.plug(true);
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Preparing"));
    // Started from the cloud: the OCPP view follows.
    send(model, "start-charge");
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Charging"));
    expect(central.calls("StartTransaction")[0]?.params).toMatchObject({ idTag: ACTOR.userId });
  });

  it("reports SuspendedEV when the car is full", async () => {
    const { central, clock, local } = await setup();
    local.plug(true);
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Preparing"));
    await central.call(ID, "RemoteStartTransaction", { idTag: "TAG-42" });
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Charging"));
    // 60 kWh at 7.36 kW from at most 100 %: under nine hours.
    clock.advance(9 * 3600_000);
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("SuspendedEV"));
  });

  it("boots before it reports a transaction already under way when it connects", async () => {
    const central = new TestCentralSystem({ [ID]: PASSWORD });
    const port = await central.listen();
    cleanup.push(() => central.close());
    const clock = new SimClock({ start: START, speed: 0 });
    // Plug and go (the default without tags): the session starts as the car is plugged in.
    const local = charger().local();
    local.plug(true);
    expect(local.status()).toBe("Charging");
    const point = new OcppChargePoint({
      url: `ws://127.0.0.1:${port}`,
      id: ID,
      password: PASSWORD,
      charger: local,
      clock,
      backoff: { initialDelayMs: 20, maxDelayMs: 100 },
    });
    // Looks at the charger (and queues the transaction's start) before the link is up.
    point.sync();
    point.start();
    cleanup.push(() => point.close());
    await settle(clock, () => expect(central.calls("StartTransaction")).toHaveLength(1));
    const order = central.received.map((r) => r.action);
    expect(order.indexOf("BootNotification")).toBeLessThan(order.indexOf("StartTransaction"));
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Charging"));
  });

  it("reconnects after the central system goes away and comes back", async () => {
    const { central, port, clock, local } = await setup();
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));
    await central.close();
    // Ten simulated minutes without the central system; the car is plugged in meanwhile.
    clock.advance(600_000);
    local.plug(true);
    clock.advance(1000);
    const back = new TestCentralSystem({ [ID]: PASSWORD });
    await back.listen(port);
    cleanup.push(() => back.close());
    // Back: no second boot, but the connector's status as it stands now.
    await settle(clock, () => expect(back.statuses()).toContain("Preparing"));
    expect(back.calls("BootNotification")).toHaveLength(0);
  });

  it("keeps a transaction's stop while the link is down and sends it when it is back", async () => {
    const { central, clock, local, model, point } = await setup();
    local.plug(true);
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Preparing"));
    await central.call(ID, "RemoteStartTransaction", { idTag: "TAG-42" });
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Charging"));
    await point.disconnect();
    await vi.waitFor(() => expect(central.clients.size).toBe(0));
    // Stopped from the cloud during ten simulated minutes without a link.
    clock.advance(300_000);
    const stoppedAt = clock.now();
    send(model, "stop-charge");
    clock.advance(300_000);
    expect(central.calls("StopTransaction")).toHaveLength(0);
    point.reconnect();
    await settle(clock, () => expect(central.calls("StopTransaction")).toHaveLength(1));
    expect(central.calls("StopTransaction")[0]?.params).toMatchObject({
      transactionId: 1,
      reason: "Remote",
      timestamp: new Date(stoppedAt).toISOString(),
    });
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Finishing"));
  });

  it("the admin's disconnect holds the link down until reconnect", async () => {
    const { central, clock, point } = await setup();
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));
    await point.disconnect();
    await vi.waitFor(() => expect(central.clients.size).toBe(0));
    clock.advance(600_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(central.connections).toBe(1);
    point.reconnect();
    await vi.waitFor(() => expect(central.connections).toBe(2));
  });

  it("boots again after a soft reset", async () => {
    const { central, clock } = await setup();
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));
    await expect(central.call(ID, "Reset", { type: "Soft" })).resolves.toEqual({ status: "Accepted" });
    await vi.waitFor(() => expect(central.calls("BootNotification")).toHaveLength(2));
    // Unavailable for the reboot's simulated minute, then Available again.
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Available"));
  });

  it("answers TriggerMessage, ChangeAvailability and UnlockConnector", async () => {
    const { central, clock } = await setup();
    await settle(clock, () => expect(central.statuses()).toEqual(["Available"]));
    await expect(central.call(ID, "TriggerMessage", { requestedMessage: "Heartbeat" })).resolves.toEqual({
      status: "Accepted",
    });
    await vi.waitFor(() => expect(central.calls("Heartbeat")).toHaveLength(1));
    await expect(central.call(ID, "ChangeAvailability", { connectorId: 1, type: "Inoperative" })).resolves.toEqual({
      status: "Accepted",
    });
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Unavailable"));
    await central.call(ID, "ChangeAvailability", { connectorId: 1, type: "Operative" });
    await settle(clock, () => expect(central.statuses().at(-1)).toBe("Available"));
    await expect(central.call(ID, "UnlockConnector", { connectorId: 1 })).resolves.toEqual({ status: "Unlocked" });
  });
});

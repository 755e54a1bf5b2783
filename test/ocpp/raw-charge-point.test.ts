import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CHARGE_POINTS, type Harness, START, startHarness, until } from "./helpers.js";

/**
 * A charge point written without any OCPP library: a plain WebSocket with the ocpp1.6 subprotocol
 * and a Basic auth header, sending OCPP-J frames as the OCPP 1.6J specification writes them:
 * [2, "<uniqueId>", "<Action>", {payload}] (a Call), answered with [3, "<uniqueId>", {payload}]
 * (a CallResult) or [4, "<uniqueId>", "<errorCode>", "<errorDescription>", {details}] (a CallError).
 */
interface RawChargePoint {
  readonly ws: WebSocket;
  /** Sends text as it is. */
  sendText(text: string): void;
  /** Sends a Call and resolves with the frame that answers it. */
  call(uniqueId: string, action: string, payload: unknown): Promise<unknown[]>;
  /** The next frame the central system sends. */
  next(): Promise<unknown[]>;
  closed(): Promise<{ code: number; reason: string }>;
}

const [CP1] = CHARGE_POINTS;
let harness: Harness | undefined;
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await harness?.stop();
  harness = undefined;
});

function basic(id: string, password: string): string {
  return `Basic ${Buffer.from(`${id}:${password}`).toString("base64")}`;
}

function open(
  port: number,
  id: string,
  password: string,
  protocols: string[] = ["ocpp1.6"],
): Promise<RawChargePoint | { refused: number }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/${id}`, protocols, {
    headers: { authorization: basic(id, password) },
  });
  sockets.push(ws);
  const frames: unknown[][] = [];
  const waiting: ((frame: unknown[]) => void)[] = [];
  ws.on("message", (data: Buffer) => {
    const frame = JSON.parse(data.toString("utf8")) as unknown[];
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  const closing = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once("close", (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })),
  );
  const next = (): Promise<unknown[]> => {
    const frame = frames.shift();
    return frame ? Promise.resolve(frame) : new Promise((resolve) => waiting.push(resolve));
  };
  return new Promise((resolve, reject) => {
    ws.once("unexpected-response", (_request, response) => {
      resolve({ refused: response.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once("error", reject);
    ws.once("open", () =>
      resolve({
        ws,
        sendText: (text) => ws.send(text),
        call: (uniqueId, action, payload) => {
          ws.send(JSON.stringify([2, uniqueId, action, payload]));
          return next();
        },
        next,
        closed: () => closing,
      }),
    );
  });
}

async function connected(h: Harness, id: string = CP1.id, password: string = CP1.password): Promise<RawChargePoint> {
  const cp = await open(h.central.port, id, password);
  if ("refused" in cp) throw new Error(`refused with ${cp.refused}`);
  return cp;
}

const BOOT = { chargePointVendor: "Acme", chargePointModel: "Wallbox 7" };

describe("a charge point written without the library, sending raw OCPP-J frames", () => {
  it("boots, authorises, starts, sends meter values and stops", async () => {
    harness = await startHarness();
    const cp = await connected(harness);
    expect(cp.ws.protocol).toBe("ocpp1.6");
    expect(await cp.call("19223201", "BootNotification", BOOT)).toEqual([
      3,
      "19223201",
      { status: "Accepted", currentTime: "2026-06-21T12:00:00Z", interval: 30 },
    ]);
    expect(await cp.call("a1", "Authorize", { idTag: "TAG-OK" })).toEqual([
      3,
      "a1",
      { idTagInfo: { status: "Accepted" } },
    ]);
    expect(
      await cp.call("a2", "StartTransaction", {
        connectorId: 1,
        idTag: "TAG-OK",
        meterStart: 20_000,
        timestamp: "2026-06-21T12:00:00Z",
      }),
    ).toEqual([3, "a2", { idTagInfo: { status: "Accepted" }, transactionId: 1 }]);
    harness.clock.advance(900_000);
    expect(
      await cp.call("a3", "MeterValues", {
        connectorId: 1,
        transactionId: 1,
        meterValue: [
          {
            timestamp: "2026-06-21T12:15:00Z",
            sampledValue: [
              // No measurand: Energy.Active.Import.Register; no unit: Wh.
              { value: "21800" },
              { value: "7200", measurand: "Power.Active.Import", unit: "W", context: "Sample.Periodic" },
            ],
          },
        ],
      }),
    ).toEqual([3, "a3", {}]);
    harness.clock.advance(900_000);
    expect(
      await cp.call("a4", "StopTransaction", {
        transactionId: 1,
        meterStop: 23_600,
        timestamp: "2026-06-21T12:30:00Z",
        reason: "Local",
      }),
    ).toEqual([3, "a4", {}]);
    expect(harness.events.filter((e) => e.kind === "meter")).toEqual([
      {
        kind: "meter",
        id: "CP1",
        at: START + 900_000,
        connectorId: 1,
        transactionId: 1,
        energyKwh: 21.8,
        powerW: 7_200,
      },
    ]);
    expect(harness.store.ocppSessions.get(1)).toEqual({
      id: 1,
      chargePoint: "CP1",
      connectorId: 1,
      idTag: "TAG-OK",
      startedAt: START,
      stoppedAt: START + 1_800_000,
      meterStartWh: 20_000,
      meterStopWh: 23_600,
      energyKwh: 3.6,
      stopReason: "Local",
    });
  });

  it("answers bad frames with the CallError ocpp-rpc gives, logs each, and stays up", async () => {
    harness = await startHarness();
    const h = harness;
    const cp = await connected(h);

    expect(await cp.call("b1", "FlyToTheMoon", {})).toEqual([
      4,
      "b1",
      "NotImplemented",
      "Unable to handle 'FlyToTheMoon' calls",
      {},
    ]);

    // A number where the schema wants a string.
    const typed = await cp.call("b2", "BootNotification", { ...BOOT, chargePointVendor: 42 });
    expect(typed.slice(0, 4)).toEqual([4, "b2", "TypeConstraintViolation", "data/chargePointVendor must be string"]);

    // A required property left out.
    const missing = await cp.call("b3", "StartTransaction", { connectorId: 1, idTag: "TAG-OK", meterStart: 0 });
    expect(missing.slice(0, 4)).toEqual([
      4,
      "b3",
      "OccurrenceConstraintViolation",
      "data must have required property 'timestamp'",
    ]);

    // A property the schema does not have.
    const extra = await cp.call("b4", "Heartbeat", { beat: true });
    expect(extra.slice(0, 4)).toEqual([
      4,
      "b4",
      "PropertyConstraintViolation",
      "data must NOT have additional properties",
    ]);

    // A string longer than the schema allows (CiString20Type).
    const long = await cp.call("b5", "Authorize", { idTag: "X".repeat(21) });
    expect(long.slice(0, 4)).toEqual([
      4,
      "b5",
      "FormationViolation",
      "data/idTag must NOT have more than 20 characters",
    ]);

    // An enum value OCPP does not know.
    const status = await cp.call("b6", "StatusNotification", {
      connectorId: 1,
      errorCode: "NoError",
      status: "Dancing",
    });
    expect(status.slice(0, 3)).toEqual([4, "b6", "FormationViolation"]);

    // Text that is not JSON, and JSON that is not an OCPP-J frame.
    cp.sendText("this is not JSON {");
    expect(await cp.next()).toEqual([4, "-1", "RpcFrameworkError", "Message must be a JSON structure", {}]);
    cp.sendText('{"not": "an array"}');
    expect(await cp.next()).toEqual([4, "-1", "RpcFrameworkError", "Message must be an array", {}]);
    cp.sendText('[7, "b7", "Heartbeat", {}]');
    // ocpp-rpc checks the type before it reads the id, so the answer carries "-1".
    expect(await cp.next()).toEqual([4, "-1", "MessageTypeNotSupported", "Unrecognised message type", {}]);

    // Still connected, still answering.
    expect(await cp.call("b8", "Heartbeat", {})).toEqual([3, "b8", { currentTime: "2026-06-21T12:00:00Z" }]);
    const warnings = h
      .log()
      .filter((line) => line.level === 40)
      .map((line) => line.msg);
    expect(warnings).toEqual([
      "charge point CP1 sent an action this central system does not implement",
      "charge point CP1's BootNotification breaks the OCPP 1.6 schema",
      "charge point CP1's StartTransaction breaks the OCPP 1.6 schema",
      "charge point CP1's Heartbeat breaks the OCPP 1.6 schema",
      "charge point CP1's Authorize breaks the OCPP 1.6 schema",
      "charge point CP1's StatusNotification breaks the OCPP 1.6 schema",
      "charge point CP1 sent a message that is not OCPP-J",
      "charge point CP1 sent a message that is not OCPP-J",
      "charge point CP1 sent a message that is not OCPP-J",
    ]);
    expect(h.events.filter((e) => e.kind === "boot" || e.kind === "status")).toEqual([]);
  });

  it("gets commands as Call frames, and an answer outside OCPP 1.6 rejects the command", async () => {
    harness = await startHarness();
    const h = harness;
    const cp = await connected(h);
    const reset = h.central.reset("CP1");
    const call = await cp.next();
    expect(call).toEqual([2, expect.any(String), "Reset", { type: "Soft" }]);
    cp.sendText(JSON.stringify([3, call[1], { status: "Accepted" }]));
    expect(await reset).toBe("Accepted");

    const change = h.central.changeAvailability("CP1", { connectorId: 1, type: "Operative" });
    const second = await cp.next();
    expect(second).toEqual([2, expect.any(String), "ChangeAvailability", { connectorId: 1, type: "Operative" }]);
    cp.sendText(JSON.stringify([3, second[1], { status: "Maybe" }]));
    await expect(change).rejects.toMatchObject({ name: "OcppCommandError", kind: "invalid-answer" });

    const unlock = h.central.unlockConnector("CP1", 2);
    const third = await cp.next();
    cp.sendText(JSON.stringify([4, third[1], "NotSupported", "no motor in this lock", {}]));
    await expect(unlock).rejects.toMatchObject({ kind: "call-error", code: "NotSupported" });
  });

  it("refuses an unknown charge point, a wrong password and a missing subprotocol before the socket opens", async () => {
    harness = await startHarness();
    const port = harness.central.port;
    expect(await open(port, "CP9", "whatever-password")).toEqual({ refused: 401 });
    expect(await open(port, "CP1", "cp2-password")).toEqual({ refused: 401 });
    expect(await open(port, "CP1", CP1.password, ["ocpp2.0.1"])).toEqual({ refused: 400 });
    expect(harness.logText()).not.toContain("whatever-password");
    expect(harness.logText()).not.toContain("cp2-password");
    expect(harness.events).toEqual([]);
    // The right one still gets in.
    const cp = await connected(harness);
    expect((await cp.call("c1", "BootNotification", BOOT))[0]).toBe(3);
  });

  it("closes the connection of a 1 MB frame (1009), and a good charge point connects and boots afterwards", async () => {
    harness = await startHarness();
    const h = harness;
    const big = await connected(h);
    big.sendText(JSON.stringify([2, "d1", "DataTransfer", { vendorId: "Acme", data: "x".repeat(1024 * 1024) }]));
    expect(await big.closed()).toMatchObject({ code: 1009 });
    await until(() => !h.central.connected("CP1"));
    const good = await connected(h, "CP2", "cp2-password");
    expect(await good.call("d2", "BootNotification", BOOT)).toEqual([
      3,
      "d2",
      { status: "Accepted", currentTime: "2026-06-21T12:00:00Z", interval: 30 },
    ]);
    expect(h.events.map((e) => `${e.kind} ${e.id}`)).toEqual([
      "connected CP1",
      "disconnected CP1",
      "connected CP2",
      "boot CP2",
    ]);
    expect(
      h
        .log()
        .filter((line) => line.level === 40)
        .map((line) => line.msg),
    ).toEqual(["charge point CP1 sent a message larger than 65536 bytes: disconnected it"]);
  });
});

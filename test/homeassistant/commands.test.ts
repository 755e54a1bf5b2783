import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlGate } from "../../src/control/index.js";
import { Topics } from "../../src/homeassistant/topics.js";
import { cloudControl, discoverInventory, type Inventory } from "../../src/sources/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { systemClock } from "../../src/time/clock.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { startHomeAssistant, testBus } from "../helpers/home-assistant.js";
import { type Observed, observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { baseTopic, ORIGIN } from "./rules-harness.js";

const INVERTER = "SD2024G001";
const ID = INVERTER.toLowerCase();
const RESERVE = "battery_operating_range_reserve_percent";

/**
 * Commands from Home Assistant through a real bridge on a real broker, to the simulator, with
 * the audit log in a real SQLite file.
 */
describe("commands from Home Assistant: refusals", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let store: Store;
  let dir: string;
  let bridge: Awaited<ReturnType<typeof startHomeAssistant>>;
  let gate: ControlGate;
  let observer: Awaited<ReturnType<typeof observe>>;
  let base: string;
  /** Writes the cloud was asked for (the bridge reads control values in the background meanwhile). */
  const writes: string[] = [];

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: Date.UTC(2025, 5, 15, 11, 0, 0) });
    dir = mkdtempSync(join(tmpdir(), "e2m-commands-"));
    store = openStore(join(dir, "energy2mqtt.db"));
    const client = sim.clientFor("owner", {
      onRequest: (event) => {
        if (event.endpoint.startsWith("Modify")) writes.push(event.endpoint);
      },
    });
    const inventory: Inventory = await discoverInventory(client);
    const logLines: string[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => logLines.push(line) });
    const bus = testBus(logger);
    gate = new ControlGate({
      clock: systemClock,
      control: cloudControl(client),
      audit: store.audit,
      devices: {
        inverter: (serial) => inventory.inverters.find((found) => found.serial === serial),
        charger: (uuid) => inventory.evChargers.find((found) => found.uuid === uuid),
      },
      logger,
      onApplied: (event) => bus.emit("changeApplied", event),
    });
    base = baseTopic();
    observer = await observe(broker.url, [`${base}/#`]);
    bridge = await startHomeAssistant({
      url: broker.url,
      topics: new Topics(base, `${base}-ha`),
      statusTopic: `${base}-ha/status`,
      discovery: false,
      origin: ORIGIN,
      client,
      gate,
      logger,
      inventory,
      bus,
    });
    const deadline = Date.now() + 10_000;
    while (!logLines.some((line) => line.includes('"published discovery and state"'))) {
      if (Date.now() > deadline) throw new Error("the bridge did not publish after connecting");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  afterAll(async () => {
    await bridge.stop();
    await observer.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await sim.stop();
    await broker.stop();
  });

  /** Publishes a command and returns the result the bridge answers with. */
  async function command(entity: string, payload: string, device = ID): Promise<Observed> {
    const mark = observer.messages.length;
    await observer.publish(`${base}/${device}/set/${entity}`, payload);
    return observer.waitFor(
      (m) =>
        observer.messages.indexOf(m) >= mark &&
        m.topic === `${base}/${device}/result` &&
        JSON.parse(m.payload).entity === entity,
    );
  }
  const reserve = () => sim.clientFor("owner").inverterControl.readSetting(INVERTER, 71);
  const latestAudit = () => store.audit.recent({ limit: 1 })[0];

  it("refuses a 1 MB payload without echoing it, records the refusal, and sends nothing", async () => {
    const before = writes.length;
    const audits = store.audit.recent({ limit: 1000 }).length;
    const huge = "9".repeat(1024 * 1024);
    const result = await command(RESERVE, huge);
    expect(result.payload.length).toBeLessThan(1024);
    expect(JSON.parse(result.payload)).toEqual({
      entity: RESERVE,
      ok: false,
      code: null,
      message: "the payload is 1048576 bytes; a command may be at most 65536 bytes (64 KiB): nothing was read or sent",
    });
    expect(writes.slice(before)).toEqual([]);
    expect(store.audit.recent({ limit: 1000 })).toHaveLength(audits + 1);
    const row = latestAudit();
    expect(row).toMatchObject({
      source: "mqtt",
      requesterName: RESERVE,
      targetKind: "inverter",
      target: INVERTER,
      action: `set:${RESERVE}`,
      ok: false,
      verified: false,
      skipped: false,
      message: JSON.parse(result.payload).message,
    });
    expect(JSON.stringify(row?.request).length).toBeLessThan(1024);
  });

  it("caps the echo of a bad payload under the size limit", async () => {
    const result = await command(RESERVE, `x${"y".repeat(60_000)}`);
    const body = JSON.parse(result.payload) as { ok: boolean; message: string };
    expect(body.ok).toBe(false);
    expect(result.payload.length).toBeLessThan(1024);
    expect(body.message).toMatch(
      /^Battery Operating Range reserve must be a whole number from 4 to 100 %; got "xy+…" \(60001 characters\)$/,
    );
  });

  it("takes only plain decimal numbers: 0x10 and 1e1 are refused, 16 is written", async () => {
    for (const text of ["0x10", "1e1", "0b11", " 2e1 ", "Infinity", "0o17"]) {
      const before = writes.length;
      const result = await command(RESERVE, text);
      const body = JSON.parse(result.payload) as { ok: boolean; message: string };
      expect(body.ok, text).toBe(false);
      expect(body.message).toContain(`must be a whole number from 4 to 100 %; got ${JSON.stringify(text)}`);
      expect(writes.slice(before), text).toEqual([]);
      expect(latestAudit()).toMatchObject({ ok: false, action: `set:${RESERVE}`, message: body.message });
    }
    const before = writes.length;
    const written = await command(RESERVE, "16");
    expect(writes.slice(before)).toHaveLength(1);
    expect(JSON.parse(written.payload)).toMatchObject({ ok: true });
    expect(await reserve()).toMatchObject({ ok: true, value: 16 });
  });

  it("leaves range and options to the device's rules: each refusal is one audit row saying who and why, nothing written", async () => {
    const cases = [
      { entity: "setting_battery_reserve_percent_limit", payload: "2", action: "setting:71", why: "between 4 and 100" },
      { entity: "setting_export_power_priority", payload: "Solar First", action: "setting:265", why: "one of 0, 1, 2" },
      { entity: RESERVE, payload: "2", action: "preset:", why: "4" },
    ];
    for (const { entity, payload, action, why } of cases) {
      const before = writes.length;
      const audits = store.audit.recent({ limit: 1000 }).length;
      const body = JSON.parse((await command(entity, payload)).payload) as { ok: boolean; message: string };
      expect(body.ok, entity).toBe(false);
      expect(body.message, entity).toMatch(/^Refused, nothing sent: /);
      expect(body.message, entity).toContain(why);
      expect(writes.slice(before), entity).toEqual([]);
      expect(store.audit.recent({ limit: 1000 }), entity).toHaveLength(audits + 1);
      expect(latestAudit(), entity).toMatchObject({
        source: "mqtt",
        requesterName: entity,
        targetKind: "inverter",
        target: INVERTER,
        action: expect.stringContaining(action),
        ok: false,
        verified: false,
        skipped: false,
        message: body.message,
      });
    }
    expect(await reserve()).toMatchObject({ ok: true });
  });

  it("shows and skips by one record of the device's values: a command for the value shown writes nothing", async () => {
    const key = "setting_battery_reserve_percent_limit";
    const read = await reserve();
    const value = read.ok ? read.value : undefined;
    expect(typeof value).toBe("number");
    // The reserve preset's write earlier changed this setting too: Home Assistant is shown its value.
    await observer.waitFor(
      (m) => m.topic === `${base}/${ID}` && (JSON.parse(m.payload) as Record<string, unknown>)[key] === value,
    );
    const before = writes.length;
    const body = JSON.parse((await command(key, String(value))).payload) as { ok: boolean; message: string };
    expect(body).toMatchObject({ ok: true, message: `Battery Reserve % Limit is already ${value}: nothing sent` });
    expect(writes.slice(before)).toEqual([]);
    expect(latestAudit()).toMatchObject({ action: "setting:71", ok: true, skipped: true, requesterName: key });
  });

  it("shows a change another requester made through the gate, from the gate's record", async () => {
    const key = "setting_battery_reserve_percent_limit";
    const mark = observer.messages.length;
    const outcome = await gate.apply(
      { kind: "setting", serial: INVERTER, settingId: 71, value: 55 },
      { via: "rule", name: "test" },
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    // The gate tells the bus; Home Assistant shows its record, nothing else is asked.
    await observer.waitFor(
      (m) =>
        observer.messages.indexOf(m) >= mark &&
        m.topic === `${base}/${ID}` &&
        (JSON.parse(m.payload) as Record<string, unknown>)[key] === 55,
    );
  });

  it("records in the audit log every command refused before the gate: unknown device, unknown control", async () => {
    const unknownDevice = await command(RESERVE, "20", "sx0000none");
    expect(JSON.parse(unknownDevice.payload)).toMatchObject({
      ok: false,
      message: 'no device "sx0000none" on this account',
    });
    expect(latestAudit()).toMatchObject({
      targetKind: "device",
      target: "sx0000none",
      action: `set:${RESERVE}`,
      ok: false,
      request: { payload: "20" },
      message: 'no device "sx0000none" on this account',
    });
    const unknownControl = await command("no_such_entity", "1");
    expect(JSON.parse(unknownControl.payload)).toMatchObject({ ok: false });
    expect(latestAudit()).toMatchObject({
      targetKind: "inverter",
      target: INVERTER,
      action: "set:no_such_entity",
      ok: false,
      message: JSON.parse(unknownControl.payload).message,
    });
  });

  it("records a bridge preset/apply refused for its payload, and refuses a bridge request over the limit", async () => {
    const mark = observer.messages.length;
    await observer.publish(
      `${base}/bridge/request/preset/apply`,
      JSON.stringify({ serial: INVERTER, preset: "eco-mode", transaction: 7 }),
    );
    const response = await observer.waitFor(
      (m) => observer.messages.indexOf(m) >= mark && m.topic === `${base}/bridge/response/preset/apply`,
    );
    const body = JSON.parse(response.payload) as { status: string; error: string };
    expect(body).toMatchObject({ status: "error", transaction: 7 });
    expect(latestAudit()).toMatchObject({
      source: "bridge",
      requesterName: "preset/apply",
      targetKind: "inverter",
      target: INVERTER,
      action: "preset:eco-mode",
      ok: false,
      message: body.error,
    });

    const big = observer.messages.length;
    await observer.publish(`${base}/bridge/request/snapshot/take`, `{"serial":"${"S".repeat(70_000)}"}`);
    const refused = await observer.waitFor(
      (m) => observer.messages.indexOf(m) >= big && m.topic === `${base}/bridge/response/snapshot/take`,
    );
    expect(refused.payload.length).toBeLessThan(1024);
    expect(JSON.parse(refused.payload)).toEqual({
      status: "error",
      data: {},
      error: "the payload is 70013 bytes; a request may be at most 65536 bytes (64 KiB): nothing was read or sent",
    });
  });
});

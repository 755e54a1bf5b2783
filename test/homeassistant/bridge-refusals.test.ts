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
import { observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { baseTopic, ORIGIN } from "./rules-harness.js";

const INVERTER = "SD2024G001";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A bad request: its action, its payload, and the transaction it carries (when it can be read). */
interface BadRequest {
  readonly what: string;
  readonly action: string;
  readonly payload: string;
  readonly transaction?: Json;
  /** A piece of the error the response must give. */
  readonly says: string;
  readonly target?: { readonly targetKind: string; readonly target: string; readonly action: string };
}

const bad = (
  what: string,
  action: string,
  body: Record<string, Json>,
  transaction: Json,
  says: string,
  target?: BadRequest["target"],
): BadRequest => ({
  what,
  action,
  payload: JSON.stringify({ ...body, transaction }),
  transaction,
  says,
  ...(target ? { target } : {}),
});

const snapshotTake = { targetKind: "inverter", target: INVERTER, action: "snapshot:take" };

/** The campaign's kinds of bad bridge request, with every JSON type of transaction. */
const BAD_REQUESTS: readonly BadRequest[] = [
  { what: "bad JSON", action: "snapshot/take", payload: '{"serial": "SD', says: "the payload is not valid JSON" },
  { what: "an array", action: "snapshot/take", payload: "[1, 2]", says: "must be a JSON object" },
  { what: "a number", action: "snapshot/take", payload: "42", says: "must be a JSON object" },
  { what: "a string", action: "snapshot/take", payload: '"take it"', says: "must be a JSON object" },
  { what: "null", action: "snapshot/take", payload: "null", says: "must be a JSON object" },
  bad("an unknown action", "snapshot/nope", { serial: INVERTER }, "t-unknown", 'unknown action "snapshot/nope"', {
    targetKind: "inverter",
    target: INVERTER,
    action: "unknown:snapshot/nope",
  }),
  bad("an unknown action, nothing named", "wipe/everything", {}, 17, 'unknown action "wipe/everything"', {
    targetKind: "bridge",
    target: "(none named)",
    action: "unknown:wipe/everything",
  }),
  bad(
    "a name over 32 characters",
    "snapshot/take",
    { serial: INVERTER, name: "n".repeat(33) },
    "t-long",
    "name:",
    snapshotTake,
  ),
  bad("a serial of the wrong type", "snapshot/take", { serial: 12345, name: "x" }, { id: 1 }, "serial:"),
  bad("a missing name", "snapshot/take", { serial: INVERTER }, [1, "two"], "name:", snapshotTake),
  bad("an unknown field", "snapshot/take", { serial: INVERTER, name: "x", force: true }, true, "force"),
  bad("an empty name", "snapshot/restore", { serial: INVERTER, name: "" }, false, "name:"),
  bad("a name that is an array", "snapshot/delete", { serial: INVERTER, name: ["a"] }, 0, "name:"),
  bad("an empty serial", "snapshot/exists", { serial: "", name: "x" }, -1.5, "serial:"),
  bad("a profile without its preset", "preset-profile/create", { serial: INVERTER, name: "p" }, "c", "preset:"),
  bad(
    "delete_after_apply as text",
    "preset-profile/apply",
    { serial: INVERTER, name: "p", delete_after_apply: "yes" },
    { nested: { deep: [null] } },
    "delete_after_apply:",
  ),
  bad(
    "presets that are not a list",
    "preset-profile/list",
    { serial: INVERTER, presets: "eco-mode" },
    null,
    "presets:",
  ),
  bad(
    "an unknown platform",
    "notification/send",
    { platforms: ["fax"], title: "Hello there", body: "A body long enough", icon: "mdi-flash" },
    "n",
    "platforms.0:",
    { targetKind: "account", target: "notifications", action: "notification:send" },
  ),
  bad(
    "a notification without a title",
    "notification/send",
    { platforms: ["persist"], body: "b", icon: "i" },
    3,
    "title:",
  ),
  bad(
    "a fractional power",
    "smart-device/data",
    { uuid: "u-1", time: "2025-06-15T11:00:00Z", power: 1.5 },
    "d",
    "power:",
    {
      targetKind: "smart_device",
      target: "u-1",
      action: "smart-device:data",
    },
  ),
  bad("preset fields as text", "preset/apply", { serial: INVERTER, preset: "eco-mode", fields: "on" }, [], "fields:", {
    targetKind: "inverter",
    target: INVERTER,
    action: "preset:eco-mode",
  }),
];

/**
 * Bad bridge requests through a real bridge on a real broker, with the audit log in a real SQLite
 * file: each is answered with an error and its transaction, and recorded like a refused command.
 */
describe("bridge requests refused", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let store: Store;
  let dir: string;
  let bridge: Awaited<ReturnType<typeof startHomeAssistant>>;
  let observer: Awaited<ReturnType<typeof observe>>;
  let base: string;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: Date.UTC(2025, 5, 15, 11, 0, 0) });
    dir = mkdtempSync(join(tmpdir(), "e2m-bridge-refusals-"));
    store = openStore(join(dir, "energy2mqtt.db"));
    const client = sim.clientFor("owner");
    const inventory: Inventory = await discoverInventory(client);
    const logLines: string[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => logLines.push(line) });
    const bus = testBus(logger);
    const gate = new ControlGate({
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
    observer = await observe(broker.url, [`${base}/bridge/response/#`]);
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
    await bridge?.stop();
    await observer?.close();
    store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await sim?.stop();
    await broker?.stop();
  });

  /** Publishes a request and returns the bridge's response to it. */
  async function request(action: string, payload: string): Promise<Record<string, unknown>> {
    const mark = observer.messages.length;
    await observer.publish(`${base}/bridge/request/${action}`, payload);
    const response = await observer.waitFor(
      (m) => observer.messages.indexOf(m) >= mark && m.topic === `${base}/bridge/response/${action}`,
    );
    return JSON.parse(response.payload) as Record<string, unknown>;
  }
  const audits = () => store.audit.recent({ limit: 1000 });

  it.each(BAD_REQUESTS.map((bad) => [bad.what, bad] as const))(
    "%s: an error with the transaction echoed, and an audit row",
    async (_what, bad) => {
      const before = audits().length;
      const body = await request(bad.action, bad.payload);
      expect(body.status).toBe("error");
      expect(body.data).toEqual({});
      expect(body.error).toContain(bad.says);
      if (bad.transaction === undefined) expect(body).not.toHaveProperty("transaction");
      else expect(body.transaction).toEqual(bad.transaction);

      const after = audits();
      expect(after.length).toBe(before + 1);
      expect(after[0]).toMatchObject({
        source: "bridge",
        requesterName: bad.action,
        ok: false,
        message: body.error,
        request: { payload: bad.payload },
        ...bad.target,
      });
    },
  );

  it("echoes an object transaction on a request it carries out, and audits nothing for a read", async () => {
    const before = audits().length;
    const transaction = { id: "abc", attempt: 2 };
    const body = await request(
      "snapshot/exists",
      JSON.stringify({ serial: INVERTER, name: "never-taken", transaction }),
    );
    expect(body).toEqual({ status: "ok", data: { exists: false }, transaction });
    expect(audits().length).toBe(before);
  });

  it("refuses a snapshot under the daemon's own prefix (e2m:), in any case, and takes none", async () => {
    for (const [action, name] of [
      ["snapshot/take", "e2m:pause-limits"],
      ["snapshot/restore", "e2m:pause-held"],
      ["snapshot/delete", "E2M:mine"],
    ] as const) {
      const before = audits().length;
      const body = await request(action, JSON.stringify({ serial: INVERTER, name }));
      expect(body).toMatchObject({ status: "error", data: {} });
      expect(body.error).toContain(`snapshot names starting "e2m:" are energy2mqtt's own (got "${name}")`);
      const after = audits();
      expect(after.length).toBe(before + 1);
      expect(after[0]).toMatchObject({ source: "bridge", target: INVERTER, ok: false, message: body.error });
    }
    expect(await sim.clientFor("owner").snapshots.exists(INVERTER, "e2m:pause-limits")).toBe(false);
  });

  it("records a payload over the limit capped, not whole", async () => {
    const huge = `{"serial":"${"S".repeat(70_000)}"}`;
    const body = await request("snapshot/take", huge);
    expect(body.error).toContain("a request may be at most 65536 bytes");
    const [row] = audits();
    expect(row).toMatchObject({ source: "bridge", ok: false, message: body.error });
    expect(JSON.stringify(row?.request).length).toBeLessThan(400);
  });
});

import { describe, expect, it } from "vitest";
import { EventBus, type Fetched } from "../../src/bus/event-bus.js";
import { configSchema } from "../../src/config/index.js";
import { type ChangeApplied, ControlGate } from "../../src/control/index.js";
import { historyFeature } from "../../src/history/index.js";
import { createLogger } from "../../src/log/log.js";
import {
  type Availability,
  type DeviceState,
  StateChanges,
  stateOf,
  telemetryFeature,
} from "../../src/telemetry/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import { DEFAULT_POLL } from "../helpers/poll.js";
import { tempStore } from "../history/helpers.js";
import { FAKE_SERIAL, fakeHouse, RESERVE } from "./fake.js";

const START = Date.UTC(2025, 5, 18, 9, 0, 0);
const POLL = DEFAULT_POLL;

/** Lets the promises of a poll (and the handlers it wakes) settle. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("an in-memory path behind the DeviceSource and DeviceControl ports", () => {
  it("runs telemetry, the history and the control gate with no cloud", async () => {
    const house = fakeHouse();
    const clock = new VirtualClock(START);
    const logger = createLogger("silent");
    const temp = tempStore("e2m-fake-path-");
    const failures: unknown[] = [];
    const bus = new EventBus(({ error }) => failures.push(error));
    const inventory = await house.source.discover({ logger });
    const fetched: Fetched[] = [];
    const states: DeviceState[] = [];
    const availability: Availability[] = [];
    const applied: ChangeApplied[] = [];
    const changes = new StateChanges();
    bus.on("fetched", "test", (event) => {
      fetched.push(event);
      const state = changes.of(event);
      if (state) states.push(state);
    });
    bus.on("availability", "test", (event) => void availability.push(event));
    bus.on("changeApplied", "test", (event) => void applied.push(event));

    // No history source: the path has no long history, so only what is fetched live is kept.
    const history = historyFeature({
      config: configSchema.parse({}),
      source: undefined,
      store: temp.store,
      bus,
      inventory: () => inventory,
      logger,
      clock,
    });
    const telemetry = telemetryFeature({
      source: house.source,
      poll: POLL,
      bus,
      inventory: () => inventory,
      logger,
      clock,
    });
    const gate = new ControlGate({
      control: house.control,
      audit: temp.store.audit,
      devices: {
        inverter: (serial) => inventory.inverters.find((one) => one.serial === serial),
        charger: () => undefined,
      },
      logger,
      clock,
      onApplied: (event) => bus.emit("changeApplied", event),
    });
    try {
      history.start();
      telemetry.start();
      await clock.advanceAsync(0, settle);
      house.soc = 60;
      await clock.advanceAsync(POLL.inverter, settle);

      // Each poll's answer is on the bus once; the state and the history rows are both made from it.
      expect(house.calls).toMatchObject({ discoveries: 1, polls: 2 });
      expect(fetched.map((one) => [one.kind, one.at])).toEqual([
        ["inverter.live", START],
        ["inverter.live", START + POLL.inverter],
      ]);
      expect(states.map((state) => state.kind === "inverter.live" && state.values.battery_soc)).toEqual([55, 60]);
      expect(fetched.map(stateOf)).toEqual(states);
      expect(availability).toMatchObject([{ device: FAKE_SERIAL.toLowerCase(), available: true }]);
      const rows = [...temp.store.history.query({ kind: "inverter.live", device: FAKE_SERIAL })];
      expect(rows.map((row) => [row.at, (row.data as { battery_soc?: number }).battery_soc])).toEqual([
        [START, 55],
        [START + POLL.inverter, 60],
      ]);

      // A command answered: one write, nothing read back.
      const requester = { via: "cli", name: "fake-path test" } as const;
      const first = await gate.apply(
        { kind: "setting", serial: FAKE_SERIAL, settingId: RESERVE, value: 20 },
        requester,
      );
      expect(first).toMatchObject({ ok: true, verified: true });
      expect([house.calls.writes.length, house.calls.reads.length]).toEqual([1, 0]);

      // A command whose answer leaves it open (a timeout): one write, one read-back that confirms it.
      house.answer = "timeout";
      const second = await gate.apply(
        { kind: "setting", serial: FAKE_SERIAL, settingId: RESERVE, value: 30 },
        requester,
      );
      expect(second).toMatchObject({ ok: true, verified: true });
      expect(house.calls.writes).toEqual([
        { serial: FAKE_SERIAL, settingId: RESERVE, value: 20 },
        { serial: FAKE_SERIAL, settingId: RESERVE, value: 30 },
      ]);
      expect(house.calls.reads).toEqual([{ serial: FAKE_SERIAL, settingId: RESERVE }]);
      expect(house.settings.get(RESERVE)).toBe(30);

      // Told on the bus and in the audit log, as with the cloud.
      expect(applied.map((event) => event.outcome.ok && event.request?.kind)).toEqual(["setting", "setting"]);
      expect(temp.store.audit.recent({ limit: 5 }).map((row) => row.ok)).toEqual([true, true]);

      // A device action the path does not carry fails cleanly, audited and told like any change.
      const action = await gate.act(
        { kind: "snapshot", op: "restore", serial: FAKE_SERIAL, name: "before" },
        requester,
      );
      expect(action).toMatchObject({ ok: false, message: "snapshots are not on the in-memory path" });
      expect(applied.at(-1)).toMatchObject({ action: { kind: "snapshot", op: "restore" }, outcome: { ok: false } });
      expect(failures).toEqual([]);
    } finally {
      telemetry.stop();
      await history.stop();
      await gate.stop();
      temp.cleanup();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHARGER, type GateSetup, INVERTER, startGate } from "./helpers/gate-setup.js";

describe("control gate: one change at a time per device", () => {
  let setup: GateSetup;
  beforeAll(async () => {
    setup = await startGate();
  });
  afterAll(async () => {
    await setup.stop();
  });

  const spans = (from: number) =>
    setup.events.slice(from).map(({ event, endedAt }) => ({
      endpoint: event.endpoint,
      start: endedAt - event.durationMs,
      end: endedAt,
    }));

  it("runs two writes to one inverter one after the other, in the order asked", async () => {
    const mark = setup.events.length;
    const rows = setup.auditCount();
    // The first write is answered slowly; run in parallel, the second would overtake it.
    await setup.sim.admin("/slow", { ms: 300, count: 1 });
    const [first, second] = await Promise.all([
      setup.gate.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 51 }, { via: "rule", name: "a" }),
      setup.gate.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 52 }, { via: "rule", name: "b" }),
    ]);
    expect([first.ok, second.ok]).toEqual([true, true]);
    const [a, b] = spans(mark);
    expect(spans(mark)).toHaveLength(2);
    expect(b?.start).toBeGreaterThanOrEqual(a?.end ?? Number.POSITIVE_INFINITY);
    expect(await setup.checker.inverterControl.readSetting(INVERTER, 71)).toMatchObject({ ok: true, value: 52 });
    expect(setup.auditCount()).toBe(rows + 2);
    expect(setup.store.audit.recent({ limit: 2 }).map((row) => row.requesterName)).toEqual(["b", "a"]);
  });

  it("lets different devices change in parallel", async () => {
    const mark = setup.events.length;
    await setup.sim.admin("/slow", { ms: 300, count: 1 });
    const order: string[] = [];
    await Promise.all([
      setup.gate
        .apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 53 }, { via: "rule" })
        .then(() => order.push("inverter")),
      setup.gate
        .apply(
          { kind: "ev-command", uuid: CHARGER, command: "set-plug-and-go", request: { enabled: true } },
          { via: "rule" },
        )
        .then(() => order.push("charger")),
    ]);
    expect(order).toEqual(["charger", "inverter"]);
    expect(spans(mark).map((span) => span.endpoint)).toEqual(["Send Command", "Modify Setting"]);
  });

  it("a cancelled change sends nothing and is still recorded", async () => {
    const mark = setup.events.length;
    const rows = setup.auditCount();
    const outcome = await setup.gate.apply(
      { kind: "setting", serial: INVERTER, settingId: 71, value: 60 },
      { via: "cli" },
      { signal: AbortSignal.abort() },
    );
    expect(outcome).toMatchObject({ ok: false, message: "Cancelled before anything was sent" });
    expect(setup.events.length).toBe(mark);
    expect(setup.auditCount()).toBe(rows + 1);
  });
});

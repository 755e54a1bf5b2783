import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { CHARGER, type GateSetup, INVERTER, startGate } from "./helpers/gate-setup.js";

const WRITE = "Modify Setting";
const READ = "Read Setting";

/**
 * Answers slower than the client's timeout (the simulator's slow fault), with the client's
 * timeout and the gate's settle times small: a write still in flight must not be reported as not
 * applied from a read-back taken before it landed.
 */
describe("control gate: writes answered after the client's timeout", () => {
  let setup: GateSetup | undefined;
  afterEach(async () => {
    await setup?.stop();
    setup = undefined;
  });

  /** Reads until `done` says yes, at most a second: the slow requests end within it. */
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    const deadline = performance.now() + 1_000;
    for (;;) {
      const value = await read();
      if (done(value) || performance.now() > deadline) return value;
      await sleep(25);
    }
  };

  const reserve = async (gate: GateSetup) => {
    const read = await gate.checker.inverterControl.readSetting(INVERTER, 71);
    if (!read.ok) throw new Error("the reserve could not be read");
    return read.value;
  };

  it("reports a setting write that lands after the timeout as applied, as the device holds it", async () => {
    setup = await startGate({ timeoutMs: 150, settleMs: 2_000, lateAnswerMs: 3_000 });
    const before = await reserve(setup);
    const wanted = before === 44 ? 45 : 44;
    // The write and the first read-back are each answered after 600 ms, four times the timeout.
    await setup.sim.admin("/slow", { ms: 600, count: 2 });
    const { outcome, requests } = await setup.apply({
      kind: "setting",
      serial: INVERTER,
      settingId: 71,
      value: wanted,
    });
    const gate = setup;
    const held = await until(
      () => reserve(gate),
      (value) => value === wanted,
    );
    expect(held).toBe(wanted);
    expect(outcome).toMatchObject({ ok: true, verified: true, value: wanted });
    expect(outcome.message).not.toContain("not changed");
    expect(requests.filter((name) => name === WRITE)).toHaveLength(1);
    expect(setup.store.audit.recent({ limit: 1 })[0]).toMatchObject({ ok: true, action: "setting:71" });
  });

  it("says a write with no answer by the end of the settle time may have applied, and audits its late answer", async () => {
    setup = await startGate({ timeoutMs: 100, settleMs: 250, lateAnswerMs: 2_000 });
    const before = await reserve(setup);
    const wanted = before === 46 ? 47 : 46;
    // Only the write is slow: every read-back is answered at once, and shows the old value.
    await setup.sim.admin("/slow", { ms: 900, count: 1 });
    const { outcome, requests } = await setup.apply({
      kind: "setting",
      serial: INVERTER,
      settingId: 71,
      value: wanted,
    });
    expect(outcome).toMatchObject({ ok: false, verified: false, mayHaveApplied: true });
    expect(outcome.message).toContain("the change may or may not have happened");
    expect(outcome.message).not.toContain("not changed");
    expect(requests.filter((name) => name === READ).length).toBeGreaterThan(0);
    expect(requests.filter((name) => name === WRITE)).toHaveLength(0);

    // A second change to the inverter waits for the first write's answer: sent at once, it
    // would land first and then be overwritten by the late one.
    const next = wanted + 10;
    const second = await setup.gate.apply(
      { kind: "setting", serial: INVERTER, settingId: 71, value: next },
      { via: "cli", name: "second" },
    );
    expect(second).toMatchObject({ ok: true, verified: true });
    const gate = setup;
    expect(
      await until(
        () => reserve(gate),
        (value) => value !== next,
      ),
    ).toBe(next);

    // The first write landed at 900 ms; its own answer went into the audit log, after the verdict.
    const [, late, first] = setup.store.audit.recent({ limit: 3 });
    expect(first).toMatchObject({ ok: false, action: "setting:71", message: outcome.message });
    expect(late).toMatchObject({
      ok: true,
      verified: true,
      action: "setting:71",
      source: "cli",
      requesterName: "test",
    });
    expect(late?.message).toContain("late answer");
    expect(late?.message).toContain(`set to ${wanted}`);
    expect(late?.request).toEqual(first?.request);
  });

  it("reports a slow preset write by the values the inverter holds afterwards", async () => {
    setup = await startGate({ timeoutMs: 150, settleMs: 2_000, lateAnswerMs: 3_000 });
    const before = await setup.checker.inverterControl.presetValues(INVERTER, "eco-mode");
    const wanted = before.enabled !== true;
    await setup.sim.admin("/slow", { ms: 600, count: 2 });
    const { outcome } = await setup.apply({
      kind: "preset",
      serial: INVERTER,
      preset: "eco-mode",
      fields: { enabled: wanted },
    });
    const checker = setup.checker;
    const after = await until(
      () => checker.inverterControl.presetValues(INVERTER, "eco-mode"),
      (values) => values.enabled === wanted,
    );
    expect(after.enabled).toBe(wanted);
    expect(outcome).toMatchObject({ ok: true, verified: true });
  });

  it("reports a slow EV charger command by the mode the charger holds afterwards", async () => {
    setup = await startGate({ timeoutMs: 150, settleMs: 2_000, lateAnswerMs: 3_000 });
    const { active, available } = await setup.checker.evChargers.commandData(CHARGER, "change-mode");
    const mode = available.find((candidate) => candidate !== active) ?? "Boost";
    await setup.sim.admin("/slow", { ms: 600, count: 2 });
    const { outcome } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "change-mode",
      request: { mode },
    });
    const checker = setup.checker;
    const after = await until(
      () => checker.evChargers.commandData(CHARGER, "change-mode"),
      (data) => data.active === mode,
    );
    expect(after.active).toBe(mode);
    expect(outcome).toMatchObject({ ok: true, verified: true, value: mode });
  });

  it("on stop gives up a write still waiting for its answer, and records that it may have applied", async () => {
    setup = await startGate({ timeoutMs: 100, settleMs: 150, lateAnswerMs: 5_000 });
    await setup.sim.admin("/slow", { ms: 3_000, count: 1 });
    const { outcome } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 48 });
    expect(outcome).toMatchObject({ ok: false, mayHaveApplied: true });
    expect(setup.auditCount()).toBe(1);
    await setup.gate.stop();
    expect(setup.auditCount()).toBe(2);
    const [given] = setup.store.audit.recent({ limit: 1 });
    expect(given).toMatchObject({ ok: false, action: "setting:71" });
    expect(given?.message).toContain("late answer to the change of Battery Reserve % Limit to 48");
    expect(given?.message).toContain("cancelled");
    expect(given?.message).toContain("may or may not have happened");
    const after = await setup.gate.apply(
      { kind: "setting", serial: INVERTER, settingId: 71, value: 49 },
      { via: "cli" },
    );
    expect(after).toMatchObject({ ok: false, message: "Cancelled before anything was sent" });
  });
});

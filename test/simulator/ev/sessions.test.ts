import { describe, expect, it } from "vitest";
import { isSessionOpen } from "../../../src/cloud/schemas/ev-charger.js";
import {
  ACTOR,
  charger,
  HOUR_MS,
  info,
  MINUTE_MS,
  meter,
  nextVisit,
  pluggedIn,
  START,
  send,
  sessions,
  TAG,
} from "./helpers.js";

const REGISTER = 4;

describe("charging sessions", () => {
  it("shows Preparing once the car is plugged in, and no new session", () => {
    const { model } = pluggedIn();
    expect(info(model).status).toBe("Preparing");
    expect(sessions(model, { startMs: START }).length).toBe(0);
  });

  it("start-charge opens a session started by the user, with the stopped fields null", () => {
    const { model, visit } = pluggedIn();
    expect(send(model, "start-charge")).toEqual({ code: 0, success: true, message: "Command sent" });
    expect(info(model).status).toBe("Charging");
    expect(model.powerW()).toBeGreaterThan(0);
    const [session] = sessions(model);
    expect(session).toMatchObject({ started_by: ACTOR.userId, stopped_by: null, meter_stop: null, stopped_at: null });
    expect(session?.stop_reason).toBeNull();
    expect(session && isSessionOpen(session)).toBe(true);
    expect(session?.started_at).toBe(new Date(visit.arriveMs).toISOString().replace(".000Z", "Z"));
  });

  it("stop-charge stops the session remotely and leaves the charger Finishing", () => {
    const { model, visit } = pluggedIn();
    send(model, "start-charge");
    model.advanceTo(visit.arriveMs + HOUR_MS);
    send(model, "stop-charge");
    const [session] = sessions(model);
    expect(session).toMatchObject({ stopped_by: ACTOR.userId, stop_reason: "Remote" });
    expect(session?.meter_stop).toBeGreaterThan(session?.meter_start ?? Infinity);
    expect(session?.stopped_at).toBe(new Date(visit.arriveMs + HOUR_MS).toISOString().replace(".000Z", "Z"));
    expect(info(model).status).toBe("Finishing");
    expect(model.powerW()).toBe(0);
  });

  it("stop-charge without a session answers FAILURE", () => {
    const { model } = pluggedIn();
    expect(send(model, "stop-charge")).toMatchObject({ code: -4, success: false });
  });

  it("start-charge without a car answers FAILURE", () => {
    const model = charger();
    expect(send(model, "start-charge")).toMatchObject({ code: -4, success: false });
    expect(info(model).status).toBe("Available");
  });

  it("plug and go starts the session as PLUG_AND_GO when the car arrives", () => {
    const model = charger();
    send(model, "set-plug-and-go", { enabled: true });
    const visit = nextVisit(START);
    model.advanceTo(visit.arriveMs);
    expect(info(model).status).toBe("Charging");
    expect(sessions(model)[0]).toMatchObject({ started_by: "PLUG_AND_GO", stopped_at: null });
  });

  it("unplugging stops the session with EVDisconnected, stopped by the starting tag", () => {
    const model = charger();
    const visit = nextVisit(START);
    model.advanceTo(visit.departMs + MINUTE_MS);
    const [session] = sessions(model);
    expect(session).toMatchObject({
      started_by: "PLUG_AND_GO",
      stopped_by: "PLUG_AND_GO",
      stop_reason: "EVDisconnected",
    });
    expect(info(model).status).toBe("Available");
  });

  it("a local tag starts the session on the evenings the householder taps it", () => {
    const model = charger({ idTags: [{ id: TAG }] });
    let visit = nextVisit(START);
    while (visit.tapMs === null) visit = nextVisit(visit.departMs);
    model.advanceTo(visit.tapMs + MINUTE_MS);
    expect(sessions(model)[0]).toMatchObject({ started_by: TAG, started_at: expect.any(String) });
    expect(info(model).status).toBe("Charging");
  });

  it("the session energy limit stops the session at that energy", () => {
    const { model, visit } = pluggedIn();
    send(model, "set-session-energy-limit", { limit: 2.5 });
    send(model, "start-charge");
    model.advanceTo(visit.arriveMs + 6 * HOUR_MS);
    const [session] = sessions(model);
    expect(session?.stop_reason).toBe("Other");
    expect(session?.stopped_by).toBe(ACTOR.userId);
    expect((session?.meter_stop ?? 0) - (session?.meter_start ?? 0)).toBeCloseTo(2.5, 3);
    expect(info(model).status).toBe("Finishing");
  });

  it("a limit below the energy already delivered stops the session at once", () => {
    const { model, visit } = pluggedIn();
    send(model, "start-charge");
    model.advanceTo(visit.arriveMs + HOUR_MS);
    send(model, "set-session-energy-limit", { limit: 0.1 });
    expect(sessions(model)[0]?.stop_reason).toBe("Other");
  });

  it("restart-charger stops the session with SoftReset or HardReset and is unavailable for a minute", () => {
    const { model, visit } = pluggedIn();
    send(model, "start-charge");
    model.advanceTo(visit.arriveMs + 10 * MINUTE_MS);
    send(model, "restart-charger", { hard_reset: true });
    expect(sessions(model)[0]).toMatchObject({ stop_reason: "HardReset", stopped_by: ACTOR.userId });
    expect(info(model)).toMatchObject({ status: "Unavailable", online: false });
    expect(send(model, "start-charge")).toMatchObject({ code: -2 });
    model.advanceTo(visit.arriveMs + 12 * MINUTE_MS);
    expect(info(model)).toMatchObject({ status: "Preparing", online: true, went_offline_at: null });
    send(model, "start-charge");
    send(model, "restart-charger", {});
    expect(sessions(model)[0]?.stop_reason).toBe("SoftReset");
  });

  it("unlock-connector stops the session with UnlockCommand", () => {
    const { model } = pluggedIn();
    send(model, "start-charge");
    send(model, "unlock-connector");
    expect(sessions(model)[0]?.stop_reason).toBe("UnlockCommand");
  });

  it("the car fills up and the charger shows SuspendedEV until it leaves", () => {
    const { model, visit } = pluggedIn();
    send(model, "change-mode", { mode: "Boost" });
    send(model, "start-charge");
    const toLeave = visit.departMs - MINUTE_MS;
    model.advanceTo(toLeave);
    expect(info(model).status).toBe("SuspendedEV");
    const [record] = meter(model, toLeave - 5 * MINUTE_MS, toLeave, [19]).slice(-1);
    expect(record?.measurements[0]?.value).toBe(100);
  });

  it("keeps the import register equal to the sum of all sessions' energy", () => {
    const model = charger({ idTags: [{ id: TAG }] });
    const until = START + 10 * 24 * HOUR_MS;
    model.advanceTo(until);
    const all = sessions(model);
    expect(all.some((s) => Date.parse(s.started_at) > START)).toBe(true);
    // Sessions close at departure (morning); noon has none open.
    const noon = Date.UTC(2025, 2, 13, 12, 0);
    const closed = all.filter((s) => Date.parse(s.started_at) < noon);
    expect(closed.every((s) => s.meter_stop !== null)).toBe(true);
    const total = closed.reduce((sum, s) => sum + ((s.meter_stop ?? 0) - s.meter_start), 0);
    const [record] = meter(model, noon, noon + 1, [REGISTER]);
    // The register is in Wh, sessions' meter readings in kWh.
    expect((record?.measurements[0]?.value ?? 0) / 1000).toBeCloseTo(total, 2);
  });

  it("lists sessions newest first, filtered by the time window", () => {
    const model = charger();
    model.advanceTo(START + 7 * 24 * HOUR_MS);
    const all = sessions(model);
    const starts = all.map((s) => Date.parse(s.started_at));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    const window = sessions(model, { startMs: START, endMs: START + 3 * 24 * HOUR_MS });
    expect(window.length).toBeGreaterThan(0);
    expect(window.length).toBeLessThan(all.length);
    for (const s of window) {
      expect(Date.parse(s.started_at)).toBeLessThanOrEqual(START + 3 * 24 * HOUR_MS);
      expect(Date.parse(s.stopped_at ?? "9999-12-31")).toBeGreaterThanOrEqual(START);
    }
  });
});

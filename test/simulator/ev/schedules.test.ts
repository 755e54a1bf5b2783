import { describe, expect, it } from "vitest";
import { EV_COMMANDS } from "../../../src/cloud/schemas/ev-commands.js";
import { periodLimitAt } from "../../../src/simulator/ev/schedule.js";
import { ACTOR, DAY_MS, HOUR_MS, info, MINUTE_MS, pluggedIn, send, sessions } from "./helpers.js";

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const LATE = { start_time: "22:00", end_time: "23:00", limit: 16, days: EVERY_DAY };

function schedulesOf(model: ReturnType<typeof pluggedIn>["model"]) {
  return EV_COMMANDS["set-schedule"].data.parse(model.commandData("set-schedule")).schedules;
}

describe("schedules", () => {
  it("set-schedule creates an inactive schedule with a generated id", () => {
    const { model } = pluggedIn();
    expect(send(model, "set-schedule", { name: "Night", periods: [LATE] }).code).toBe(0);
    const [schedule] = schedulesOf(model);
    expect(schedule).toMatchObject({ name: "Night", is_active: false });
    expect(schedule?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(schedule?.periods).toEqual([{ days: EVERY_DAY, start_time: "22:00", end_time: "23:00", limit: 16 }]);
    expect(model.commandData("set-active-schedule")).toEqual({
      schedule_id: null,
    });
  });

  it("set-schedule with a known schedule_id replaces that schedule", () => {
    const { model } = pluggedIn();
    send(model, "set-schedule", { schedule_id: "s1", name: "Night", periods: [LATE] });
    send(model, "set-schedule", { schedule_id: "s1", name: "Later", periods: [] });
    expect(schedulesOf(model)).toEqual([{ id: "s1", name: "Later", is_active: false, periods: [] }]);
  });

  it("an active schedule starts charging inside a period (UTC) and holds it outside", () => {
    const { model, visit } = pluggedIn();
    send(model, "set-schedule", { name: "Night", periods: [LATE] });
    const id = schedulesOf(model)[0]?.id ?? "";
    expect(send(model, "set-active-schedule", { schedule_id: id }).code).toBe(0);
    expect(schedulesOf(model)[0]?.is_active).toBe(true);
    expect(info(model).status).toBe("Preparing");

    const periodStart = Math.floor(visit.arriveMs / DAY_MS) * DAY_MS + 22 * HOUR_MS;
    model.advanceTo(periodStart - MINUTE_MS);
    expect(info(model).status).toBe("Preparing");
    model.advanceTo(periodStart);
    expect(info(model).status).toBe("Charging");
    expect(model.powerW()).toBe(16 * 230);
    expect(sessions(model)[0]).toMatchObject({ started_by: ACTOR.userId, stopped_at: null });

    model.advanceTo(periodStart + HOUR_MS);
    expect(info(model).status).toBe("SuspendedEVSE");
    expect(model.powerW()).toBe(0);

    send(model, "set-active-schedule", {});
    expect(model.commandData("set-active-schedule")).toEqual({ schedule_id: null });
    // Back to the mode (Eco): at least 6 A.
    expect(info(model).status).toBe("Charging");
  });

  it("set-active-schedule with an unknown id answers INVALID_DATA", () => {
    const { model } = pluggedIn();
    expect(send(model, "set-active-schedule", { schedule_id: "nope" })).toMatchObject({ code: -3, success: false });
  });

  it("delete-charging-profile deletes one schedule by id, or all without one", () => {
    const { model } = pluggedIn();
    send(model, "set-schedule", { schedule_id: "a", name: "A", periods: [LATE] });
    send(model, "set-schedule", { schedule_id: "b", name: "B", periods: [LATE] });
    send(model, "set-schedule", { schedule_id: "c", name: "C", periods: [LATE] });
    send(model, "set-active-schedule", { schedule_id: "a" });
    expect(send(model, "delete-charging-profile", { schedule_id: "a" }).code).toBe(0);
    expect(schedulesOf(model).map((s) => s.id)).toEqual(["b", "c"]);
    expect(model.commandData("set-active-schedule")).toEqual({ schedule_id: null });
    expect(send(model, "delete-charging-profile", { schedule_id: "a" }).code).toBe(-3);
    expect(send(model, "delete-charging-profile", {}).code).toBe(0);
    expect(schedulesOf(model)).toEqual([]);
  });

  it("an active schedule overrides the mode while a period runs", () => {
    const { model, visit } = pluggedIn();
    send(model, "change-mode", { mode: "SuperEco" });
    send(model, "start-charge");
    expect(info(model).status).toBe("SuspendedEVSE");
    send(model, "set-schedule", {
      schedule_id: "all-day",
      name: "All day",
      periods: [{ ...LATE, start_time: "00:00", end_time: "00:00" }],
    });
    send(model, "set-active-schedule", { schedule_id: "all-day" });
    expect(info(model).status).toBe("Charging");
    expect(model.powerW()).toBe(16 * 230);
    model.advanceTo(visit.arriveMs + HOUR_MS);
    expect(model.powerW()).toBe(16 * 230);
  });
});

describe("schedule periods", () => {
  // 2025-03-03 is a Monday (day 0).
  const monday = Date.UTC(2025, 2, 3);
  const at = (day: number, hhmm: string) => {
    const [h = 0, m = 0] = hhmm.split(":").map(Number);
    return monday + day * DAY_MS + h * HOUR_MS + m * MINUTE_MS;
  };
  const schedule = (period: { start_time: string; end_time: string; days: number[] }) => ({
    id: "x",
    name: "x",
    periods: [{ startTime: period.start_time, endTime: period.end_time, days: period.days, limit: 10 }],
  });

  it("runs from start (inclusive) to end (exclusive) on the listed days", () => {
    const s = schedule({ start_time: "01:30", end_time: "05:00", days: [0] });
    expect(periodLimitAt(s, at(0, "01:29"))).toBeNull();
    expect(periodLimitAt(s, at(0, "01:30"))).toBe(10);
    expect(periodLimitAt(s, at(0, "04:59"))).toBe(10);
    expect(periodLimitAt(s, at(0, "05:00"))).toBeNull();
    expect(periodLimitAt(s, at(1, "02:00"))).toBeNull();
  });

  it("carries a period whose end is before its start into the next day", () => {
    const s = schedule({ start_time: "23:00", end_time: "02:00", days: [6] });
    expect(periodLimitAt(s, at(6, "23:30"))).toBe(10);
    expect(periodLimitAt(s, at(7, "01:59"))).toBe(10);
    expect(periodLimitAt(s, at(7, "02:00"))).toBeNull();
    expect(periodLimitAt(s, at(0, "23:30"))).toBeNull();
  });
});

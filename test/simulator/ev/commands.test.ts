import { describe, expect, it } from "vitest";
import { EV_COMMAND_IDS, EV_COMMANDS } from "../../../src/cloud/schemas/ev-commands.js";
import { UNSUPPORTED_COMMANDS } from "../../../src/simulator/ev/index.js";
import { CarPlan, dayOf } from "../../../src/simulator/ev/plan.js";
import { ACTOR, charger, info, MINUTE_MS, nextVisit, pluggedIn, SEED, START, send, sessions } from "./helpers.js";

/** set-plug-and-go's `value`: its data is `{value, disabled, message}`, as the real service answers. */
function plugAndGo(model: ReturnType<typeof charger>): unknown {
  const data = model.commandData("set-plug-and-go");
  return typeof data === "object" && data !== null && "value" in data ? data.value : undefined;
}

function modeData(model: ReturnType<typeof charger>) {
  return EV_COMMANDS["change-mode"].data.parse(model.commandData("change-mode"));
}

describe("command data and support", () => {
  it("answers data for every command of the reference, parsing with the client schema", () => {
    const model = charger({ idTags: [{ id: "04A2B3C4D5", alias: "Fob" }] });
    for (const id of EV_COMMAND_IDS) {
      const parsed = EV_COMMANDS[id].data.safeParse(model.commandData(id));
      expect(parsed.success, id).toBe(true);
    }
    expect(model.commandData("no-such-command")).toBeUndefined();
  });

  it("lists every command but the unsupported ones", () => {
    const supported = charger().supportedCommands();
    expect(supported.length).toBe(EV_COMMAND_IDS.length - UNSUPPORTED_COMMANDS.length);
    expect(supported).not.toContain("adjust-cp-voltage-range");
    expect(supported).toContain("enable-local-control");
    expect(supported).toContain("set-schedule");
  });

  it("answers a CallError NotSupported for an unsupported command", () => {
    expect(send(charger(), "adjust-cp-voltage-range", { min: 7.7, max: 10.4 })).toEqual({
      code: -5,
      success: false,
      message: "CallError",
      error: { code: "NotSupported", type: "CallError", message: expect.any(String) },
    });
  });

  it("answers a server error for a command the reference does not list", () => {
    expect(send(charger(), "make-coffee")).toMatchObject({
      code: -5,
      message: "Error",
      error: { type: expect.any(String) },
    });
  });

  it("reports the charge power limit as a range in amps", () => {
    const model = charger();
    send(model, "adjust-charge-power-limit", { limit: 16 });
    expect(model.commandData("adjust-charge-power-limit")).toEqual({ min: 6, max: 32, value: 16, unit: "A" });
  });
});

describe("modes", () => {
  it("change-mode to a mode the configuration does not offer answers INVALID_DATA", () => {
    const model = charger({ configurationMode: "A" });
    expect(modeData(model)).toEqual({ active: "Boost", available: ["Boost"] });
    expect(send(model, "change-mode", { mode: "Eco" })).toMatchObject({ code: -3, success: false });
    expect(modeData(model).active).toBe("Boost");
  });

  it("change-mode to an available mode changes the command data", () => {
    const model = charger();
    expect(modeData(model)).toEqual({ active: "Eco", available: ["Boost", "Eco", "SuperEco"] });
    expect(send(model, "change-mode", { mode: "SuperEco" }).code).toBe(0);
    expect(modeData(model).active).toBe("SuperEco");
  });

  it("configuration-mode D without premium answers a SecurityError CallError", () => {
    const model = charger();
    expect(send(model, "configuration-mode", { configuration_mode: "D" })).toEqual({
      code: -5,
      success: false,
      message: "CallError",
      error: { code: "SecurityError", type: "CallError", message: expect.any(String) },
    });
    expect(model.commandData("configuration-mode")).toEqual({ value: "C" });
  });

  it("configuration-mode D with premium switches to ModbusSlave, which starts sessions as INVERTER_CONTROL", () => {
    const { model } = pluggedIn({ premium: true });
    expect(send(model, "configuration-mode", { configuration_mode: "D" }).code).toBe(0);
    expect(modeData(model)).toEqual({ active: "ModbusSlave", available: ["ModbusSlave"] });
    expect(model.commandData("installation-mode")).toBe("inverter_control");
    expect(sessions(model)[0]).toMatchObject({ started_by: "INVERTER_CONTROL" });
    expect(info(model).status).toBe("Charging");
  });

  it("installation-mode maps to a configuration mode", () => {
    const model = charger();
    send(model, "installation-mode", { installation_mode: "standalone" });
    expect(model.commandData("configuration-mode")).toEqual({ value: "A" });
    expect(send(model, "installation-mode", { installation_mode: "hybrid_inverter_control" }).code).toBe(-5);
  });

  it("SuperEco charges only from surplus of at least 6 A; Eco tops surplus up to 6 A; Boost runs at the limit", () => {
    let surplusW = 0;
    const { model } = pluggedIn({}, { surplusW: () => surplusW });
    send(model, "change-mode", { mode: "SuperEco" });
    send(model, "start-charge");
    expect(info(model).status).toBe("SuspendedEVSE");
    surplusW = 2300;
    send(model, "adjust-charge-power-limit", { limit: 20 });
    expect(model.powerW()).toBe(2300);
    send(model, "change-mode", { mode: "Eco" });
    surplusW = 500;
    send(model, "adjust-charge-power-limit", { limit: 20 });
    expect(model.powerW()).toBe(6 * 230);
    send(model, "change-mode", { mode: "Boost" });
    expect(model.powerW()).toBe(20 * 230);
  });

  it("limits the power by the car", () => {
    const { model } = pluggedIn({ car: { batteryKwh: 60, maxCurrentA: 16 } });
    send(model, "change-mode", { mode: "Boost" });
    send(model, "start-charge");
    expect(model.powerW()).toBe(16 * 230);
  });
});

describe("validation", () => {
  const cases: [string, unknown, string][] = [
    ["adjust-charge-power-limit", { limit: 5 }, "limit"],
    ["adjust-charge-power-limit", { limit: 33 }, "limit"],
    ["set-session-energy-limit", { limit: 0.05 }, "limit"],
    ["set-session-energy-limit", { limit: 251 }, "limit"],
    ["change-randomised-delay-duration", { duration: 599 }, "duration"],
    ["set-schedule", { name: "x".repeat(31), periods: [] }, "name"],
    [
      "set-schedule",
      { name: "ok", periods: [{ start_time: "7:00", end_time: "08:00", limit: 6, days: [0] }] },
      "periods.0.start_time",
    ],
    ["set-plug-and-go", {}, "enabled"],
    ["configuration-mode", { configuration_mode: "F" }, "configuration_mode"],
    ["add-id-tags", { id_tags: [{ id: "x".repeat(21) }] }, "id_tags.0.id"],
  ];

  for (const [command, body, field] of cases) {
    it(`${command} ${JSON.stringify(body).slice(0, 40)} answers 422 naming ${field}`, () => {
      const answer = charger().sendCommand(command, body, ACTOR);
      expect(answer.status).toBe(422);
      expect(answer.body.message).toBe("The given data was invalid.");
      if (answer.status === 422) expect(answer.body.errors[field]?.length).toBeGreaterThan(0);
    });
  }

  it("uses Laravel's messages", () => {
    const model = charger();
    expect(model.sendCommand("adjust-charge-power-limit", { limit: 33 }, ACTOR).body).toEqual({
      message: "The given data was invalid.",
      errors: { limit: ["The limit field must not be greater than 32."] },
    });
    expect(model.sendCommand("set-plug-and-go", null, ACTOR).body).toEqual({
      message: "The given data was invalid.",
      errors: { enabled: ["The enabled field is required."] },
    });
  });

  it("ignores unknown fields, as the server does", () => {
    const model = charger();
    expect(send(model, "adjust-charge-power-limit", { limit: 10, note: "x" }).code).toBe(0);
    expect(send(model, "start-charge", { whatever: 1 }).code).toBe(-4);
  });

  it("validates before looking at the charger: 422 even when offline", () => {
    const model = charger();
    model.setOffline(true);
    expect(model.sendCommand("adjust-charge-power-limit", { limit: 40 }, ACTOR).status).toBe(422);
  });
});

describe("faults", () => {
  it("an offline charger answers CHARGER_OFFLINE and applies nothing", () => {
    const model = charger();
    model.advanceTo(START + 60_000);
    model.setOffline(true);
    expect(info(model)).toMatchObject({
      online: false,
      status: "Unavailable",
      went_offline_at: "2025-03-03T12:01:00Z",
    });
    expect(send(model, "adjust-charge-power-limit", { limit: 10 })).toMatchObject({ code: -2, success: false });
    expect(send(model, "change-mode", { mode: "Boost" }).code).toBe(-2);
    expect(model.commandData("adjust-charge-power-limit")).toMatchObject({ value: 32 });
    expect(model.commandData("change-mode")).toMatchObject({ active: "Eco" });
    model.setOffline(false);
    expect(info(model)).toMatchObject({ online: true, status: "Available", went_offline_at: null });
  });

  it("an offline charger does not charge", () => {
    const model = charger();
    const visit = nextVisit(START);
    model.setOffline(true);
    model.advanceTo(visit.arriveMs + 60_000);
    expect(model.powerW()).toBe(0);
    model.setOffline(false);
    expect(info(model).status).toBe("Charging");
  });

  it("goes Faulted in its seeded fault window; a restart clears the fault", () => {
    const plan = new CarPlan(SEED);
    let day = dayOf(START) + 1;
    while (!plan.faultOn(day)) day++;
    const window = plan.faultOn(day);
    const model = charger();
    model.advanceTo(window?.startMs ?? 0);
    expect(info(model).status).toBe("Faulted");
    expect(send(model, "restart-charger").code).toBe(0);
    model.advanceTo((window?.startMs ?? 0) + 2 * MINUTE_MS);
    expect(info(model).status).toBe("Available");
  });

  it("injected timeouts answer TIMEOUT for the next commands, then the charger answers again", () => {
    const model = charger();
    model.injectTimeouts(2);
    expect(send(model, "adjust-charge-power-limit", { limit: 10 })).toMatchObject({ code: -1, success: false });
    expect(send(model, "adjust-charge-power-limit", { limit: 11 })).toMatchObject({ code: -1 });
    expect(send(model, "adjust-charge-power-limit", { limit: 12 }).code).toBe(0);
  });

  it("a timed-out command may or may not have been applied, the same way for the same seed", () => {
    const applied = (seed: number) => {
      const model = charger({}, undefined, seed);
      model.injectTimeouts(8);
      const outcomes: boolean[] = [];
      for (let i = 0; i < 8; i++) {
        const before = plugAndGo(model);
        send(model, "set-plug-and-go", { enabled: !before });
        outcomes.push(plugAndGo(model) !== before);
      }
      return outcomes;
    };
    const outcomes = applied(7);
    expect(outcomes).toEqual(applied(7));
    expect(outcomes).toContain(true);
    expect(outcomes).toContain(false);
  });
});

describe("ID tags", () => {
  it("adds, renames and deletes tags within maximum_id_tags", () => {
    const model = charger({ idTags: [{ id: "A1" }], maximumIdTags: 3 });
    expect(send(model, "add-id-tags", { id_tags: [{ id: "B2", alias: "Spare" }, { id: "C3" }] }).code).toBe(0);
    expect(send(model, "add-id-tags", { id_tags: [{ id: "D4" }] })).toMatchObject({ code: -3, success: false });
    expect(send(model, "rename-id-tag", { tag_id: "C3", alias: "Work" }).code).toBe(0);
    expect(send(model, "rename-id-tag", { tag_id: "Z9", alias: "x" }).code).toBe(-3);
    const data = EV_COMMANDS["add-id-tags"].data.parse(model.commandData("add-id-tags"));
    expect(data.maximum_id_tags).toBe(3);
    expect(data.id_tags.map((t) => [t.id, t.alias])).toEqual([
      ["A1", null],
      ["B2", "Spare"],
      ["C3", "Work"],
    ]);
    send(model, "delete-id-tags", { id_tags: ["A1", "B2"] });
    expect(EV_COMMANDS["add-id-tags"].data.parse(model.commandData("add-id-tags")).id_tags.map((t) => t.id)).toEqual([
      "C3",
    ]);
  });
});

describe("settings commands", () => {
  it("stores the settings they change", () => {
    const model = charger();
    send(model, "configure-inverter-control", { mode: "Eco", max_battery_discharge_power_to_evc: 500 });
    expect(model.commandData("configure-inverter-control")).toEqual({
      inverter_battery_export_split: "0.5",
      max_battery_discharge_power_to_evc: 500,
      mode: "Eco",
    });
    send(model, "enable-local-control", { value: true });
    expect(model.commandData("enable-local-control")).toEqual({ value: true });
    send(model, "set-plug-and-go", { enabled: false });
    expect(model.commandData("set-plug-and-go")).toEqual({ value: false, disabled: false, message: null });
    send(model, "set-plug-and-go", { enabled: true });
    expect(model.commandData("set-plug-and-go")).toEqual({ value: true, disabled: false, message: null });
    send(model, "set-session-energy-limit", { limit: 20 });
    expect(model.commandData("set-session-energy-limit")).toEqual({ min: 0.1, max: 250, value: 20, unit: "kWh" });
    send(model, "set-session-energy-limit", {});
    expect(model.commandData("set-session-energy-limit")).toMatchObject({ value: null });
  });

  it("perform-factory-reset restores the factory settings", () => {
    const model = charger();
    send(model, "change-mode", { mode: "Boost" });
    send(model, "set-schedule", { name: "x", periods: [] });
    send(model, "perform-factory-reset");
    expect(model.commandData("change-mode")).toMatchObject({ active: "Eco" });
    expect(model.commandData("set-schedule")).toEqual({ schedules: [] });
  });
});

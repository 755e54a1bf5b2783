import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { CloudClient } from "../../../src/cloud/client.js";
import { EV_COMMAND_IDS, EV_COMMANDS } from "../../../src/cloud/index.js";
import { cloudChargerCommands } from "../../../src/sources/cloud/charger-control.js";
import { CHARGER_COMMAND_IDS, CHARGER_COMMANDS } from "../../../src/vocabulary/index.js";
import { mockCloud } from "../../helpers/mock-cloud.js";
import { startTestSimulator } from "../../helpers/simulator.js";

const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";

describe("the daemon's charger commands and the cloud's", () => {
  it("are the same commands, in the same order", () => {
    expect(CHARGER_COMMAND_IDS).toEqual(EV_COMMAND_IDS);
  });

  it("take the same fields with the same bounds, so a refusal reads as it did", () => {
    const asJson = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
    for (const id of CHARGER_COMMAND_IDS)
      expect(asJson(CHARGER_COMMANDS[id]), id).toEqual(asJson(EV_COMMANDS[id].request));
  });
});

describe("the cloud's EV commands in the daemon's words (sources/cloud/charger-control.ts)", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let client: CloudClient;
  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0 });
    client = sim.clientFor("owner");
  });
  afterAll(async () => {
    client.close();
    await sim.stop();
  });

  it("sends a mode the charger offers, done with the cloud's code, and reads it back", async () => {
    const commands = cloudChargerCommands(client);
    const { active, available } = await commands.read(CHARGER, "change-mode");
    const mode = available.find((candidate) => candidate !== active);
    expect(mode).toBeDefined();
    expect(await commands.send(CHARGER, "change-mode", { mode: mode ?? "" })).toEqual({
      outcome: "done",
      value: undefined,
      code: 0,
    });
    expect((await commands.read(CHARGER, "change-mode")).active).toBe(mode);
  });

  it("gives a refusal the charger did not act on as refused, with its code and its words", async () => {
    const commands = cloudChargerCommands(client);
    const { available } = await commands.read(CHARGER, "change-mode");
    expect(available).not.toContain("ModbusSlave");
    const answer = await commands.send(CHARGER, "change-mode", { mode: "ModbusSlave" });
    expect(answer).toMatchObject({ outcome: "refused", code: -3 });
    expect(answer.outcome === "refused" && answer.reason).toContain("(code -3)");
  });

  it("reads a switch as its value, whichever way the charger answers it", async () => {
    const commands = cloudChargerCommands(client);
    expect(await commands.send(CHARGER, "enable-front-panel-led", { value: false })).toMatchObject({ outcome: "done" });
    expect(await commands.read(CHARGER, "enable-front-panel-led")).toEqual({ value: false });
    expect(await commands.send(CHARGER, "enable-front-panel-led", { value: true })).toMatchObject({ outcome: "done" });
    expect(await commands.read(CHARGER, "enable-front-panel-led")).toEqual({ value: true });
  });

  it("reads the current limit with its unit, and the charger's status", async () => {
    const commands = cloudChargerCommands(client);
    expect(await commands.send(CHARGER, "adjust-charge-power-limit", { limit: 12 })).toMatchObject({
      outcome: "done",
    });
    expect(await commands.read(CHARGER, "adjust-charge-power-limit")).toMatchObject({ value: 12, unit: "A" });
    expect(await commands.status(CHARGER)).toBe((await client.evChargers.get(CHARGER)).status);
  });
});

describe("the cloud's answers the simulator does not give, in the daemon's words", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });
  const path = (command: string) => `/ev-charger/${CHARGER}/commands/${command}`;

  it("reads a switch's bare value, {value} or not, and the randomised delay as not told", async () => {
    cloud.reply("GET", path("enable-front-panel-led"), { body: { data: true } });
    cloud.reply("GET", path("set-max-import-capacity"), { body: { data: { value: 63 } } });
    cloud.reply("GET", path("change-randomised-delay-duration"), { body: { data: [] } });
    const commands = cloudChargerCommands(cloud.client);
    expect(await commands.read(CHARGER, "enable-front-panel-led")).toEqual({ value: true });
    expect(await commands.read(CHARGER, "set-max-import-capacity")).toEqual({ value: 63 });
    expect(await commands.read(CHARGER, "change-randomised-delay-duration")).toBeNull();
  });

  it("leaves a command open when the charger's answer may have applied it (-1, a timeout)", async () => {
    cloud.reply("POST", path("stop-charge"), {
      body: { data: { code: -1, success: false, message: "No answer from the charger" } },
    });
    const answer = await cloudChargerCommands(cloud.client).send(CHARGER, "stop-charge", {});
    expect(answer).toMatchObject({ outcome: "open", code: -1 });
    expect(answer.outcome === "open" && answer.reason).toMatch(/\(code -1\): No answer from the charger$/);
  });
});

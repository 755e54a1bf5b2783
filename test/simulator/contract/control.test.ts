import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloudClient } from "../../../src/cloud/client.js";
import { ForbiddenError, NotFoundError, ServerError, ValidationError } from "../../../src/cloud/errors.js";
import { startTestSimulator } from "../../helpers/simulator.js";

const START = Date.UTC(2025, 5, 15, 11, 0, 0);
const INVERTER = "SD2024G001";

describe("simulator through the client: control", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let owner: CloudClient;
  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
    owner = sim.clientFor("owner");
  });
  afterAll(async () => {
    await sim.stop();
  });

  it("writes a setting and reads it back", async () => {
    const written = await owner.inverterControl.writeSetting(INVERTER, 71, 20);
    expect(written).toMatchObject({ ok: true, value: 20 });
    expect(await owner.inverterControl.readSetting(INVERTER, 71)).toMatchObject({ ok: true, value: 20 });
  });

  it("refuses a value outside the setting's rules with code -4 and keeps the old one", async () => {
    const refused = await owner.inverterControl.writeSetting(INVERTER, 71, 3);
    expect(refused).toMatchObject({ ok: false, code: -4, mayHaveApplied: false });
    expect(refused.ok ? "" : (refused.message ?? "")).toContain("between 4 and 100");
    expect(await owner.inverterControl.readSetting(INVERTER, 71)).toMatchObject({ ok: true, value: 20 });
  });

  it("answers -2 while the inverter is offline and -7 while it is locked", async () => {
    await sim.admin(`/devices/${INVERTER}`, { offline: true });
    expect(await owner.inverterControl.writeSetting(INVERTER, 71, 30)).toMatchObject({ ok: false, code: -2 });
    const device = await owner.communicationDevices.get("WF2024D001");
    expect(device.inverter?.status).toBe("LOST");
    await sim.admin(`/devices/${INVERTER}`, { offline: false, locked: true });
    expect(await owner.inverterControl.writeSetting(INVERTER, 71, 30)).toMatchObject({
      ok: false,
      code: -7,
      mayHaveApplied: false,
    });
    await sim.admin(`/devices/${INVERTER}`, { locked: false });
    expect(await owner.inverterControl.readSetting(INVERTER, 71)).toMatchObject({ ok: true, value: 20 });
  });

  it("answers an injected timeout with -1, which may have applied", async () => {
    await sim.admin(`/devices/${INVERTER}`, { timeouts: 1 });
    const answer = await owner.inverterControl.writeSetting(INVERTER, 72, 2500);
    expect(answer).toMatchObject({ ok: false, code: -1, mayHaveApplied: true });
    const readBack = await owner.inverterControl.readSetting(INVERTER, 72);
    expect(readBack.ok && [2500, 3600].includes(Number(readBack.value))).toBe(true);
  });

  it("multi-control reads and writes answer per device, -3 for one the account lacks", async () => {
    const written = await owner.inverterControl.multiControlWrite({
      inverter_serials: [INVERTER, "SE2024G102", "SX9999NONE"],
      setting_id: 71,
      value: "25",
    });
    expect(written[INVERTER]).toMatchObject({ ok: true });
    expect(written.SE2024G102).toMatchObject({ ok: true });
    expect(written.SX9999NONE).toMatchObject({ ok: false, code: -3 });
    const read = await owner.inverterControl.multiControlRead({
      inverter_serials: [INVERTER, "SE2024G102"],
      setting_id: 71,
    });
    expect(read[INVERTER]).toMatchObject({ ok: true, value: 25 });
  });

  it("a timed-charge preset writes its slots, and the values come back", async () => {
    const result = await owner.inverterControl.modifyPreset(INVERTER, "timed-charge", {
      enabled: true,
      slots: [{ start_time: "01:00", end_time: "04:30", percent_limit: 90 }],
    });
    expect(result.success).toBe(true);
    const values = await owner.inverterControl.presetValues(INVERTER, "timed-charge");
    expect(JSON.stringify(values)).toContain("04:30");
    expect(await owner.inverterControl.readSetting(INVERTER, 66)).toMatchObject({ ok: true, value: true });
    expect(await owner.inverterControl.readSetting(INVERTER, 101)).toMatchObject({ ok: true, value: 90 });
  });

  it("refuses a preset with a bad slot time with 422 naming the field", async () => {
    const response = await owner.http.raw(
      {
        name: "Modify Preset",
        method: "POST",
        path: `/inverter/${INVERTER}/presets/timed-charge`,
        scopes: [],
        idempotent: false,
      },
      { body: { enabled: true, slots: [{ start_time: "25:00", end_time: "04:00" }] } },
    );
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body)).toContain("slots.0.start_time");
  });

  it("snapshots: take, exists, duplicate 422, restore puts settings back and deletes it, 404 when gone", async () => {
    await owner.inverterControl.writeSetting(INVERTER, 71, 10);
    expect((await owner.snapshots.take(INVERTER, "before-rule")).success).toBe(true);
    expect(await owner.snapshots.exists(INVERTER, "before-rule")).toBe(true);
    const duplicate = await owner.snapshots.take(INVERTER, "before-rule").catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(ValidationError);
    expect(Object.keys((duplicate as ValidationError).errors)).toEqual(["snapshot"]);
    await owner.inverterControl.writeSetting(INVERTER, 71, 55);
    expect((await owner.snapshots.restore(INVERTER, "before-rule")).success).toBe(true);
    expect(await owner.inverterControl.readSetting(INVERTER, 71)).toMatchObject({ value: 10 });
    expect(await owner.snapshots.exists(INVERTER, "before-rule")).toBe(false);
    await expect(owner.snapshots.restore(INVERTER, "before-rule")).rejects.toBeInstanceOf(NotFoundError);
    await expect(owner.snapshots.delete(INVERTER, "before-rule")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("snapshots belong to the actor that took them", async () => {
    await owner.snapshots.take(INVERTER, "mine");
    const service = sim.clientFor("service");
    expect(await service.snapshots.exists(INVERTER, "mine")).toBe(false);
    expect((await owner.snapshots.delete(INVERTER, "mine")).success).toBe(true);
  });

  it("a restore that cannot change the inverter reports failure and keeps the snapshot", async () => {
    await owner.snapshots.take(INVERTER, "keep-me");
    await owner.inverterControl.writeSetting(INVERTER, 71, 60);
    await sim.admin(`/devices/${INVERTER}`, { locked: true });
    expect((await owner.snapshots.restore(INVERTER, "keep-me")).success).toBe(false);
    await sim.admin(`/devices/${INVERTER}`, { locked: false });
    expect(await owner.snapshots.exists(INVERTER, "keep-me")).toBe(true);
    await owner.snapshots.delete(INVERTER, "keep-me");
  });

  it("preset profiles: create from current values, list, update, apply with delete_after_apply, owner-only delete", async () => {
    await owner.inverterControl.modifyPreset(INVERTER, "eco-mode", { enabled: false });
    const created = await owner.presetProfiles.create(INVERTER, { name: "summer", preset: "eco-mode" });
    expect(created).toMatchObject({ name: "summer", preset_id: "eco-mode", inverter_id: INVERTER });
    expect(created.data).toEqual({ enabled: false });
    await owner.inverterControl.modifyPreset(INVERTER, "eco-mode", { enabled: true });
    const updated = await owner.presetProfiles.update(INVERTER, { name: "summer", preset: "eco-mode" });
    expect(updated.data).toEqual({ enabled: true });
    const listed = await owner.presetProfiles.list(INVERTER, { presets: ["eco-mode"] });
    expect(listed.map((p) => p.name)).toEqual(["summer"]);

    const service = sim.clientFor("service");
    await expect(
      service.presetProfiles.delete(INVERTER, { name: "summer", preset: "eco-mode" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await owner.inverterControl.modifyPreset(INVERTER, "eco-mode", { enabled: false });
    const applied = await owner.presetProfiles.apply(INVERTER, { name: "summer", delete_after_apply: true });
    expect(applied.success).toBe(true);
    expect(await owner.inverterControl.presetValues(INVERTER, "eco-mode")).toEqual({ enabled: true });
    expect(await owner.presetProfiles.list(INVERTER, { name: "summer" })).toEqual([]);

    await owner.presetProfiles.create(INVERTER, { name: "winter", preset: "pause-battery" });
    expect(await owner.presetProfiles.delete(INVERTER, { name: "winter", preset: "pause-battery" })).toEqual({
      success: true,
    });
    await expect(
      owner.presetProfiles.delete(INVERTER, { name: "winter", preset: "pause-battery" }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it("slow answers time out on the client and a read is tried again", async () => {
    // undici checks its timeouts on a coarse clock, so the answer is made far slower than the limit.
    const impatient = sim.clientFor("owner", { timeoutMs: 300 });
    await sim.admin("/slow", { ms: 2500, count: 1 });
    expect((await impatient.account.get()).id).toBe(1001);
    await sim.admin("/slow", { ms: 2500, count: 1 });
    const error = await impatient.inverterControl.writeSetting(INVERTER, 71, 41).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "TransportError", timedOut: true });
  });

  it("holds only the requests of the path given, lists them while they wait, and close() aborts them at once", async () => {
    const client = sim.clientFor("owner");
    await sim.admin("/slow", { ms: 20_000, count: 1, path: "/account" });
    expect(await client.inverterControl.readSetting(INVERTER, 71)).toMatchObject({ value: expect.any(Number) });
    const held = client.account.get().catch((e: unknown) => e);
    const deadline = Date.now() + 5000;
    let waiting: { method: string; path: string }[] = [];
    const account = { method: "GET", path: "/v1/account" };
    while (!waiting.some((request) => request.path === account.path) && Date.now() < deadline) {
      waiting = ((await sim.admin("/slow", undefined, "GET")) as { data: { held: typeof waiting } }).data.held;
    }
    expect(waiting).toContainEqual(account);
    expect(waiting.filter((request) => request.path.includes("/settings/71/read"))).toEqual([]);
    client.close();
    expect(await held).toMatchObject({ name: "AbortError" });
    // Closed for good: nothing new is sent.
    await expect(client.account.get()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("answers 422 with errors by field for an energy-flows body that breaks the rules", async () => {
    const response = await owner.http.raw(
      {
        name: "Energy Flows",
        method: "POST",
        path: `/inverter/${INVERTER}/energy-flows`,
        scopes: [],
        idempotent: true,
      },
      { body: { start_time: "yesterday", end_time: "2025-06-11 00:00:00", grouping: 9 } },
    );
    expect(response.status).toBe(422);
    const errors = (response.body as { errors: Record<string, string[]> }).errors;
    expect(Object.keys(errors).sort()).toEqual(["grouping", "start_time"]);
  });

  it("retries reads through a 503 burst but never a write", async () => {
    await sim.admin("/errors", { status: 503, count: 2 });
    expect((await owner.account.get()).id).toBe(1001);
    await sim.admin("/errors", { status: 502, count: 1 });
    await expect(owner.inverterControl.writeSetting(INVERTER, 71, 40)).rejects.toBeInstanceOf(ServerError);
    expect(await owner.inverterControl.readSetting(INVERTER, 71)).not.toMatchObject({ value: 40 });
  });
});

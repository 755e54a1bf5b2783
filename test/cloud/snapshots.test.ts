import { afterEach, describe, expect, it } from "vitest";
import { InvalidRequestError, NotFoundError, ValidationError } from "../../src/cloud/errors.js";
import { snapshotEndpoints } from "../../src/cloud/sections/snapshots.js";
import { expectRequest, mockCloud } from "../helpers/mock-cloud.js";

describe("snapshots section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("declares the scopes of the reference", () => {
    expect(snapshotEndpoints.exists.scopes).toEqual(["api:inverter:control", "api:snapshot:read"]);
    expect(snapshotEndpoints.take.scopes).toEqual(["api:inverter:control", "api:snapshot:write"]);
    expect(snapshotEndpoints.restore.scopes).toEqual(["api:inverter:control", "api:snapshot:write"]);
    expect(snapshotEndpoints.delete.scopes).toEqual(["api:inverter:control", "api:snapshot:delete"]);
  });

  it("GET snapshot/{name} encodes the name as one path segment and reads exists", async () => {
    cloud.reply("GET", "/inverter/SA1/snapshot/before%20winter%2F1", { body: { data: { exists: true } } });
    expect(await cloud.client.snapshots.exists("SA1", "before winter/1")).toBe(true);
    expectRequest(cloud.only(), "GET", "/v1/inverter/SA1/snapshot/before%20winter%2F1", undefined);
  });

  it("GET snapshot/{name} reads exists false", async () => {
    cloud.reply("GET", "/inverter/SA1/snapshot/nightly", { body: { data: { exists: false } } });
    expect(await cloud.client.snapshots.exists("SA1", "nightly")).toBe(false);
  });

  it("POST snapshot/{name} sends sync true and the client's context by default", async () => {
    cloud.reply("POST", "/inverter/SA1/snapshot/nightly", { body: { data: { success: true } } });
    const result = await cloud.client.snapshots.take("SA1", "nightly");
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/snapshot/nightly", { sync: true, context: "energy2mqtt" });
    expect(result.success).toBe(true);
  });

  it("POST snapshot/{name} sends sync false and a given context", async () => {
    cloud.reply("POST", "/inverter/SA1/snapshot/nightly", { body: { data: { success: true } } });
    await cloud.client.snapshots.take("SA1", "nightly", { sync: false, context: "tariff-rule" });
    expect(cloud.only().body).toEqual({ sync: false, context: "tariff-rule" });
  });

  it("a duplicate name (422) is a ValidationError carrying errors.snapshot", async () => {
    cloud.reply("POST", "/inverter/SA1/snapshot/nightly", {
      status: 422,
      body: {
        message: "The given data was invalid.",
        errors: { snapshot: ["A snapshot with this name already exists."] },
      },
    });
    const attempt = cloud.client.snapshots.take("SA1", "nightly");
    await expect(attempt).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt).rejects.toMatchObject({
      errors: { snapshot: ["A snapshot with this name already exists."] },
    });
    expect(cloud.requests).toHaveLength(1);
  });

  it("POST snapshot/{name}/restore sends sync and context and reads a partial failure", async () => {
    cloud.reply("POST", "/inverter/SA1/snapshot/nightly/restore", { body: { data: { success: false } } });
    const result = await cloud.client.snapshots.restore("SA1", "nightly");
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/snapshot/nightly/restore", {
      sync: true,
      context: "energy2mqtt",
    });
    expect(result.success).toBe(false);
  });

  it("restoring an absent snapshot (404) is a NotFoundError", async () => {
    cloud.reply("POST", "/inverter/SA1/snapshot/gone/restore", {
      status: 404,
      body: { message: "Snapshot not found." },
    });
    const attempt = cloud.client.snapshots.restore("SA1", "gone");
    await expect(attempt).rejects.toBeInstanceOf(NotFoundError);
    await expect(attempt).rejects.toThrow(/Snapshot not found/);
  });

  it("DELETE snapshot/{name} sends no body", async () => {
    cloud.reply("DELETE", "/inverter/SA1/snapshot/nightly", { body: { data: { success: true } } });
    const result = await cloud.client.snapshots.delete("SA1", "nightly");
    expectRequest(cloud.only(), "DELETE", "/v1/inverter/SA1/snapshot/nightly", undefined);
    expect(result.success).toBe(true);
  });

  it("deleting an absent snapshot (404) is a NotFoundError", async () => {
    cloud.reply("DELETE", "/inverter/SA1/snapshot/gone", { status: 404, body: { message: "Snapshot not found." } });
    await expect(cloud.client.snapshots.delete("SA1", "gone")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("counts the 32-character limit in characters, not UTF-16 units", async () => {
    const wide = "🔋".repeat(32); // 32 characters, 64 UTF-16 units
    cloud.reply("GET", `/inverter/SA1/snapshot/${encodeURIComponent(wide)}`, { body: { data: { exists: false } } });
    expect(await cloud.client.snapshots.exists("SA1", wide)).toBe(false);
    expect(cloud.only().path).toBe(`/v1/inverter/SA1/snapshot/${encodeURIComponent(wide)}`);
    await expect(cloud.client.snapshots.exists("SA1", `${wide}x`)).rejects.toBeInstanceOf(InvalidRequestError);
    expect(cloud.requests).toHaveLength(1);
  });

  it("refuses a 33-character or empty name locally on every endpoint and sends nothing", async () => {
    const long = "n".repeat(33);
    const attempts = [
      cloud.client.snapshots.exists("SA1", long),
      cloud.client.snapshots.take("SA1", long),
      cloud.client.snapshots.restore("SA1", long),
      cloud.client.snapshots.delete("SA1", long),
      cloud.client.snapshots.take("SA1", ""),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toBeInstanceOf(InvalidRequestError);
    expect(cloud.requests).toHaveLength(0);
  });
});

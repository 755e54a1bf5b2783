import { afterEach, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/cloud/errors.js";
import { type ProfileRef, presetProfileEndpoints } from "../../src/cloud/sections/preset-profiles.js";
import { expectRequest, mockCloud } from "../helpers/mock-cloud.js";

const PROFILE = {
  id: 311,
  inverter_id: "SA1",
  preset_id: "timed-charge",
  name: "Winter",
  scope: "user",
  // The stored preset values: a field named `data` inside the profile itself.
  data: { enabled: true, slots: [{ start_time: "00:30", end_time: "04:30", percent_limit: 100 }] },
};

const NAME_32 = "a".repeat(32);
const NAME_33 = "a".repeat(33);

describe("preset profiles section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("declares the scopes of the reference", () => {
    expect(presetProfileEndpoints.list.scopes).toEqual(["api:inverter:control:profile:list"]);
    expect(presetProfileEndpoints.create.scopes).toEqual(["api:inverter:control:profile:manage"]);
    expect(presetProfileEndpoints.update.scopes).toEqual(["api:inverter:control:profile:manage"]);
    expect(presetProfileEndpoints.delete.scopes).toEqual(["api:inverter:control:profile:manage"]);
    expect(presetProfileEndpoints.apply.scopes).toEqual(["api:inverter:control", "api:inverter:control:profile:list"]);
  });

  it("GET preset-profile puts name and presets[] in the query", async () => {
    cloud.reply("GET", "/inverter/SA1/preset-profile", {
      body: { data: [PROFILE, { ...PROFILE, id: 312, preset_id: "eco-mode", data: [], scope: null }] },
    });
    const profiles = await cloud.client.presetProfiles.list("SA1", {
      name: "Winter",
      presets: ["timed-charge", "eco-mode"],
    });
    expectRequest(
      cloud.only(),
      "GET",
      "/v1/inverter/SA1/preset-profile?name=Winter&presets[]=timed-charge&presets[]=eco-mode",
      undefined,
    );
    expect(profiles.map((p) => [p.id, p.preset_id])).toEqual([
      [311, "timed-charge"],
      [312, "eco-mode"],
    ]);
    expect(profiles[0]?.data).toEqual(PROFILE.data);
    expect(profiles[1]?.data).toEqual([]);
  });

  it("GET preset-profile without a filter sends no query", async () => {
    cloud.reply("GET", "/inverter/SA1/preset-profile", { body: { data: [] } });
    expect(await cloud.client.presetProfiles.list("SA1")).toEqual([]);
    expectRequest(cloud.only(), "GET", "/v1/inverter/SA1/preset-profile", undefined);
  });

  it("POST preset-profile reads the 201 top-level profile without mistaking its own data for a wrapper", async () => {
    cloud.reply("POST", "/inverter/SA1/preset-profile", { status: 201, body: PROFILE });
    const profile = await cloud.client.presetProfiles.create("SA1", { name: "Winter", preset: "timed-charge" });
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/preset-profile", { name: "Winter", preset: "timed-charge" });
    expect(profile).toEqual(PROFILE);
  });

  it("POST preset-profile also reads a profile wrapped in data", async () => {
    cloud.reply("POST", "/inverter/SA1/preset-profile", { status: 201, body: { data: PROFILE } });
    const profile = await cloud.client.presetProfiles.create("SA1", { name: "Winter", preset: "timed-charge" });
    expect(profile.id).toBe(311);
    expect(profile.data).toEqual(PROFILE.data);
  });

  it("PUT preset-profile updates the named profile", async () => {
    cloud.reply("PUT", "/inverter/SA1/preset-profile", { body: { ...PROFILE, data: { enabled: false, slots: [] } } });
    const profile = await cloud.client.presetProfiles.update("SA1", { name: "Winter", preset: "timed-charge" });
    expectRequest(cloud.only(), "PUT", "/v1/inverter/SA1/preset-profile", { name: "Winter", preset: "timed-charge" });
    expect(profile.data).toEqual({ enabled: false, slots: [] });
  });

  it("POST preset-profile/apply reads success, message and statuses", async () => {
    cloud.reply("POST", "/inverter/SA1/preset-profile/apply", {
      body: {
        success: false,
        message: "Some profiles could not be applied",
        statuses: { "timed-charge": true, "eco-mode": false, "pause-battery": null },
      },
    });
    const result = await cloud.client.presetProfiles.apply("SA1", {
      name: "Winter",
      presets: ["timed-charge", "eco-mode", "pause-battery"],
      delete_after_apply: true,
    });
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/preset-profile/apply", {
      name: "Winter",
      presets: ["timed-charge", "eco-mode", "pause-battery"],
      delete_after_apply: true,
    });
    expect(result).toEqual({
      success: false,
      message: "Some profiles could not be applied",
      statuses: { "timed-charge": true, "eco-mode": false, "pause-battery": null },
    });
  });

  it("POST preset-profile/apply with only a name, and PHP's empty statuses", async () => {
    cloud.reply("POST", "/inverter/SA1/preset-profile/apply", {
      body: { success: true, message: "Applied", statuses: [] },
    });
    const result = await cloud.client.presetProfiles.apply("SA1", { name: "Winter" });
    expectRequest(cloud.only(), "POST", "/v1/inverter/SA1/preset-profile/apply", { name: "Winter" });
    expect(result.statuses).toEqual({});
    expect(result.success).toBe(true);
  });

  it("DELETE preset-profile sends name and preset as a JSON body", async () => {
    cloud.reply("DELETE", "/inverter/SA1/preset-profile", { body: { success: true } });
    const result = await cloud.client.presetProfiles.delete("SA1", { name: NAME_32, preset: "eco-mode" });
    expectRequest(cloud.only(), "DELETE", "/v1/inverter/SA1/preset-profile", { name: NAME_32, preset: "eco-mode" });
    expect(result).toEqual({ success: true });
  });

  it("refuses a 33-character name locally and sends nothing", async () => {
    const attempts = [
      cloud.client.presetProfiles.list("SA1", { name: NAME_33 }),
      cloud.client.presetProfiles.create("SA1", { name: NAME_33, preset: "eco-mode" }),
      cloud.client.presetProfiles.update("SA1", { name: NAME_33, preset: "eco-mode" }),
      cloud.client.presetProfiles.apply("SA1", { name: NAME_33 }),
      cloud.client.presetProfiles.delete("SA1", { name: NAME_33, preset: "eco-mode" }),
    ];
    for (const attempt of attempts) {
      await expect(attempt).rejects.toMatchObject({
        name: "InvalidRequestError",
        errors: { name: [expect.any(String)] },
      });
    }
    expect(cloud.requests).toHaveLength(0);
  });

  it("refuses unknown presets, presets not allowed in profiles and legacy IDs, sending nothing", async () => {
    const unknown = { name: "Winter", preset: "turbo-mode" } as unknown as ProfileRef;
    const notAllowed = { name: "Winter", preset: "reset-to-defaults" } as unknown as ProfileRef;
    const legacy = { name: "Winter", preset: 1 } as unknown as ProfileRef;
    await expect(cloud.client.presetProfiles.create("SA1", unknown)).rejects.toMatchObject({
      name: "InvalidRequestError",
      errors: { preset: [expect.any(String)] },
    });
    await expect(cloud.client.presetProfiles.delete("SA1", notAllowed)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(cloud.client.presetProfiles.update("SA1", legacy)).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(
      cloud.client.presetProfiles.list("SA1", { presets: ["plant-ems-enable-control"] } as unknown as { presets: [] }),
    ).rejects.toMatchObject({ errors: { "presets.0": [expect.any(String)] } });
    expect(cloud.requests).toHaveLength(0);
  });
});

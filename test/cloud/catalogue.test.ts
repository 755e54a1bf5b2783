import { describe, expect, it } from "vitest";
import { ENDPOINTS, findEndpoint } from "../../src/cloud/catalogue.js";

describe("endpoint catalogue", () => {
  // The reference's Modify Setting (path not shown) is the notes' settings/{id}/write: 44 + 3 new.
  it("knows the reference's 44 endpoints and the notes' other three, each once", () => {
    expect(ENDPOINTS).toHaveLength(47);
    const keys = new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`));
    expect(keys.size).toBe(47);
    const names = new Set(ENDPOINTS.map((e) => e.name));
    expect(names.size).toBe(47);
  });

  it("marks only GETs and read-only POSTs as safe to retry", () => {
    const retriedPosts = ENDPOINTS.filter((e) => e.method !== "GET" && e.idempotent).map((e) => e.path);
    expect(retriedPosts.sort()).toEqual([
      "/inverter/{inverter_serial_number}/energy-flows",
      "/inverter/{inverter_serial_number}/settings/{setting_id}/read",
      "/multi-control/read",
    ]);
  });

  it("gives notification send its own limit of 10 per 60 minutes", () => {
    const limited = ENDPOINTS.filter((e) => e.customLimit);
    expect(limited.map((e) => [e.path, e.customLimit])).toEqual([
      ["/notification/send", { requests: 10, minutes: 60 }],
    ]);
  });

  it("matches concrete paths, preferring literal segments", () => {
    expect(findEndpoint("GET", "/account/search/joe")?.name).toBe("Search Account");
    expect(findEndpoint("GET", "/account/joe/devices")?.name).toBe("Get Account Devices");
    expect(findEndpoint("POST", "/inverter/SA1/settings/17/write")?.path).toBe(
      "/inverter/{inverter_serial_number}/settings/{setting_id}/write",
    );
    expect(findEndpoint("GET", "/nowhere")).toBeUndefined();
  });
});

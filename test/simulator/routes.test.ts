import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../src/cloud/catalogue.js";
import { ROUTES } from "../../src/simulator/http/routes/index.js";

describe("simulator routes", () => {
  it("serve exactly the endpoints the client knows, with the same access rules", () => {
    const routes = new Map(ROUTES.map((r) => [`${r.method} ${r.path}`, r]));
    const missing: string[] = [];
    for (const endpoint of ENDPOINTS) {
      const route = routes.get(`${endpoint.method} ${endpoint.path}`);
      if (!route) {
        missing.push(`${endpoint.method} ${endpoint.path}`);
        continue;
      }
      expect([...route.scopes].sort(), `${endpoint.method} ${endpoint.path}`).toEqual([...endpoint.scopes].sort());
      expect(route.accountType, endpoint.path).toBe(endpoint.accountType);
      expect(route.customLimit, endpoint.path).toEqual(endpoint.customLimit);
    }
    expect(missing).toEqual([]);
    expect(ROUTES).toHaveLength(ENDPOINTS.length);
  });
});

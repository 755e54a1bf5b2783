import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runApiCommand } from "../../src/sources/cloud/commands/api.js";
import { capture } from "../helpers/capture.js";
import { startHttpServer } from "../helpers/http-server.js";
import { startTestSimulator } from "../helpers/simulator.js";

describe("energy2mqtt api", () => {
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  beforeEach(async () => {
    server = await startHttpServer((request) => {
      if (request.url.startsWith("/v1/account"))
        return {
          status: 200,
          body: { data: { id: 1, name: "owner" } },
          headers: { "x-ratelimit-limit": "300", "x-ratelimit-remaining": "299" },
        };
      if (request.url.startsWith("/v1/inverter/SA1/settings/17/read"))
        return { status: 200, body: { data: { value: true } } };
      return { status: 404, body: { message: "Not Found" } };
    });
    vi.stubEnv("ENERGY2MQTT_CLOUD_URL", `${server.url}/v1`);
    vi.stubEnv("ENERGY2MQTT_CLOUD_TOKEN", "cli-test-token");
    vi.stubEnv("ENERGY2MQTT_CONFIG", "");
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await server.close();
  });

  it("GETs a path and prints the JSON body", async () => {
    const out = capture();
    const err = capture();
    const code = await runApiCommand({ method: "get", path: "/account", include: true }, out.stream, err.stream);
    expect(code).toBe(0);
    expect(JSON.parse(out.text())).toEqual({ data: { id: 1, name: "owner" } });
    expect(err.text()).toContain("HTTP 200 (Get Account); rate limit remaining 299/300");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer cli-test-token");
  });

  it("POSTs --data as JSON and keeps the query's array form", async () => {
    const out = capture();
    const code = await runApiCommand(
      { method: "POST", path: "/inverter/SA1/settings/17/read?x[]=1&x[]=2", data: '{"context":"cli"}' },
      out.stream,
      capture().stream,
    );
    expect(code).toBe(0);
    expect(server.requests[0]?.url).toBe("/v1/inverter/SA1/settings/17/read?x[]=1&x[]=2");
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({ context: "cli" });
  });

  it("prints the body of an error answer and exits 1", async () => {
    const out = capture();
    const err = capture();
    expect(await runApiCommand({ method: "GET", path: "/nothing" }, out.stream, err.stream)).toBe(1);
    expect(JSON.parse(out.text())).toEqual({ message: "Not Found" });
    expect(err.text()).toContain("HTTP 404");
  });

  it("exits 2 when the cloud refuses the token (401), as the README's exit codes say", async () => {
    const sim = await startTestSimulator({ speed: 0 });
    try {
      vi.stubEnv("ENERGY2MQTT_CLOUD_URL", sim.simulator.url);
      vi.stubEnv("ENERGY2MQTT_CLOUD_TOKEN", "not-a-token");
      const err = capture();
      expect(await runApiCommand({ method: "GET", path: "/account" }, capture().stream, err.stream)).toBe(2);
      expect(err.text()).toContain("HTTP 401");
      expect(err.text()).toContain("API tokens");
    } finally {
      await sim.stop();
    }
  });

  it("refuses bad usage with exit 2 and sends nothing", async () => {
    const err = capture();
    expect(await runApiCommand({ method: "FETCH", path: "/account" }, capture().stream, err.stream)).toBe(2);
    expect(await runApiCommand({ method: "GET", path: "account" }, capture().stream, err.stream)).toBe(2);
    expect(await runApiCommand({ method: "POST", path: "/account", data: "{nope" }, capture().stream, err.stream)).toBe(
      2,
    );
    expect(err.text()).toContain("--data is not valid JSON");
    expect(server.requests).toHaveLength(0);
  });

  it("says how to configure the cloud when none is set", async () => {
    vi.stubEnv("ENERGY2MQTT_CLOUD_TOKEN", "");
    vi.stubEnv("ENERGY2MQTT_CLOUD_URL", "");
    delete process.env.ENERGY2MQTT_CLOUD_TOKEN;
    delete process.env.ENERGY2MQTT_CLOUD_URL;
    const err = capture();
    expect(await runApiCommand({ method: "GET", path: "/account" }, capture().stream, err.stream)).toBe(2);
    expect(err.text()).toContain("ENERGY2MQTT_CLOUD_TOKEN");
  });
});

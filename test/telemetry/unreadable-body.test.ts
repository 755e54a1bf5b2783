import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { discoverInventory } from "../../src/sources/index.js";
import { CHARGER, EMS, type Harness, HOUSE, ofKind, startHarness } from "./harness.js";

/** What the proxy answers in the simulator's place: status and raw body text. */
type Override = (method: string, path: string) => { status: number; text: string } | undefined;

/**
 * A real HTTP proxy in front of the simulator that can answer chosen requests itself, with a
 * body the client cannot read, while every other request goes through unchanged.
 */
async function startProxy() {
  const state: { target: string; override: Override } = { target: "", override: () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const url = req.url ?? "/";
      const own = state.override(req.method ?? "GET", url.split("?")[0] ?? url);
      if (own) {
        res.writeHead(own.status, { "content-type": "application/json" });
        res.end(own.text);
        return;
      }
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "accept", "content-type"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      const answer = await fetch(`${state.target}${url}`, {
        method: req.method,
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const forwarded: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name === "content-type" || name.startsWith("x-ratelimit") || name === "retry-after")
          forwarded[name] = value;
      });
      res.writeHead(answer.status, forwarded);
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Proxy = Awaited<ReturnType<typeof startProxy>>;

/** The harness's simulator behind the proxy; the client talks to the proxy. */
async function proxied(): Promise<{ h: Harness; proxy: Proxy }> {
  const proxy = await startProxy();
  const h = await startHarness("owner", { client: { baseUrl: `${proxy.url}/v1` } });
  proxy.state.target = h.sim.simulator.url.replace(/\/v1$/, "");
  return { h, proxy };
}

const LIVE_PATH = `/v1/inverter/${HOUSE}/system-data/latest`;
/** A power the schema cannot read as a number. */
const BAD_LIVE = JSON.stringify({ data: { time: "2025-06-18T09:00:00Z", solar: { power: "lots", arrays: [] } } });

describe("a body the client cannot read", () => {
  let h: Harness | undefined;
  let proxy: Proxy | undefined;
  afterEach(async () => {
    await h?.stop();
    await proxy?.close();
    h = undefined;
    proxy = undefined;
  });

  it("fails only that resource: its device goes unavailable with the field named, the rest carry on", async () => {
    ({ h, proxy } = await proxied());
    proxy.state.override = (method, path) =>
      method === "GET" && path === LIVE_PATH ? { status: 200, text: BAD_LIVE } : undefined;
    const { readings, isCompleted } = await h.start();

    // First round: the house's live data failed; its counters, the EMS and the charger answered.
    expect(ofKind(readings, "inverter.live")).toEqual([]);
    expect(ofKind(readings, "inverter.counters").map((r) => r.serial)).toEqual([HOUSE]);
    expect(ofKind(readings, "ems").map((r) => r.serial)).toEqual([EMS]);
    expect(ofKind(readings, "ev.status").map((r) => r.uuid)).toEqual([CHARGER]);

    // Retries after 1 and 2 more minutes: the third failure in a row makes the house unavailable.
    await h.advance(180_000);
    const down = ofKind(readings, "availability").filter((r) => !r.available);
    expect(down).toEqual([expect.objectContaining({ device: HOUSE.toLowerCase() })]);
    expect(down[0]?.reason).toContain(`inverter.live ${HOUSE} failed 3 times in a row`);
    expect(down[0]?.reason).toContain(
      "Get Latest System Data (GET /inverter/{inverter_serial_number}/system-data/latest)",
    );
    expect(down[0]?.reason).toContain('unexpected response shape at "data.solar.power"');
    // Meanwhile the EMS went on being polled every minute.
    expect(ofKind(readings, "ems").length).toBeGreaterThanOrEqual(3);
    expect(isCompleted()).toBe(false);

    // Once the body is readable again, so is the house.
    proxy.state.override = () => undefined;
    await h.advance(240_000);
    expect(ofKind(readings, "availability").at(-1)).toEqual(
      expect.objectContaining({ device: HOUSE.toLowerCase(), available: true }),
    );
    expect(ofKind(readings, "inverter.live").map((r) => r.serial)).toContain(HOUSE);
  });

  it("in a listing at start-up, leaves that listing empty and discovers the rest", async () => {
    ({ h, proxy } = await proxied());
    proxy.state.override = (method, path) =>
      method === "GET" && path === "/v1/smart-device" ? { status: 200, text: '{"data":[{"alias":5}]}' } : undefined;
    const inventory = await discoverInventory(h.client);
    expect(inventory.smartDevices).toEqual([]);
    expect(inventory.inverters.map((i) => i.serial)).toContain(HOUSE);
    expect(inventory.ems.map((e) => e.serial)).toEqual([EMS]);
    expect(inventory.evChargers.map((c) => c.uuid)).toEqual([CHARGER]);
  });
});

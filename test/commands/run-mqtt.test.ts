import { once } from "node:events";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { type DaemonProcess, killDaemon, startDaemonProcess } from "../helpers/daemon-process.js";
import { hasOpenssl, type SecureBroker, startSecureBroker } from "../helpers/secure-broker.js";
import { startTestSimulator } from "../helpers/simulator.js";

type Simulator = Awaited<ReturnType<typeof startTestSimulator>>;

const cloud = (sim: Simulator): string =>
  [
    "cloud:",
    `  url: ${sim.simulator.url}`,
    `  token: ${sim.simulator.tokens.owner}`,
    "  requests_per_minute: 10000",
  ].join("\n");
const common = ["store:", "  path: DIR/e2m.db", "log:", "  level: info"].join("\n");

describe("energy2mqtt run and the broker's security", () => {
  let sim: Simulator | undefined;
  let broker: SecureBroker | undefined;
  let daemon: DaemonProcess | undefined;
  afterEach(async () => {
    killDaemon(daemon);
    daemon = undefined;
    await broker?.stop();
    broker = undefined;
    await sim?.stop();
    sim = undefined;
  });

  it.skipIf(!hasOpenssl())(
    "connects over mqtts:// with mqtt.ca and publishes as usual",
    async () => {
      broker = await startSecureBroker({ tls: true });
      sim = await startTestSimulator({ requestsPerMinute: 100_000 });
      daemon = startDaemonProcess(`${cloud(sim)}\nmqtt:\n  url: ${broker.url}\n  ca: ${broker.caFile}\n${common}\n`);
      const published = await daemon.waitForLog((line) => line.msg === "published discovery and state");
      expect(published.devices).toBeGreaterThan(0);
      expect((await daemon.stop("SIGTERM")).code).toBe(0);
    },
    60_000,
  );

  it("stops with exit code 2 and says what to fix when the broker refuses the password", async () => {
    broker = await startSecureBroker({ users: { e2m: "right-password" } });
    sim = await startTestSimulator({ requestsPerMinute: 100_000 });
    daemon = startDaemonProcess(
      `${cloud(sim)}\nmqtt:\n  url: ${broker.url}\n  username: e2m\n  password: wrong-password\n${common}\n`,
    );
    const [code] = (await once(daemon.child, "exit")) as [number | null];
    expect(code).toBe(2);
    const said = daemon.stderr.join("\n");
    expect(said).toContain("refused the connection");
    expect(said).toContain("Check mqtt.username and mqtt.password");
    expect(said).not.toContain("wrong-password");
  }, 60_000);

  it("with mqtt.username and mqtt.password and no mqtt.url, the embedded broker takes only those", async () => {
    daemon = startDaemonProcess(
      `mqtt:\n  username: e2m\n  password: embedded-secret\n  base_topic: e2m${process.pid}\n${common}\n`,
    );
    const started = await daemon.waitForLog((line) => line.msg?.startsWith("no MQTT broker configured") ?? false);
    const url = String(started.url);
    // The daemon itself got in with them.
    await daemon.waitForLog((line) => line.msg === "published discovery and state");
    await expect(mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 3000 })).rejects.toMatchObject({
      code: 4,
    });
    await expect(
      mqtt.connectAsync(url, { username: "e2m", password: "wrong", reconnectPeriod: 0, connectTimeout: 3000 }),
    ).rejects.toMatchObject({ code: 4 });
    const client = await mqtt.connectAsync(url, {
      username: "e2m",
      password: "embedded-secret",
      reconnectPeriod: 0,
      connectTimeout: 3000,
    });
    const state = new Promise<string>((resolve) =>
      client.on("message", (_topic, payload) => resolve(payload.toString())),
    );
    await client.subscribeAsync(`e2m${process.pid}/bridge/state`);
    expect(JSON.parse(await state)).toEqual({ state: "online" });
    await client.endAsync();
  }, 60_000);
});

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedBroker } from "../../src/broker/index.js";

export type BrokerKind = "external" | "mosquitto" | "testcontainers" | "embedded";

export interface TestBroker {
  readonly url: string;
  readonly kind: BrokerKind;
  stop(): Promise<void>;
  /** Stops the broker and starts it again on the same port, losing retained messages (no persistence). */
  restart?(): Promise<void>;
}

/**
 * A real MQTT broker for a test, in this order: MQTT_TEST_URL; the mosquitto binary on a free
 * port; a Testcontainers Mosquitto where a Docker engine answers; the embedded aedes broker.
 * With REQUIRE_MOSQUITTO=1 (as in CI) falling back to the embedded broker is an error.
 */
export async function startTestBroker(options: BrokerOptions = {}): Promise<TestBroker> {
  const broker = await pickBroker(options);
  console.info(`[test broker] ${broker.kind} at ${broker.url}`);
  return broker;
}

export interface BrokerOptions {
  /**
   * Keep every QoS 1 message for a subscriber that falls behind (mosquitto drops them past
   * 1,000 by default): for a bench that counts a fleet's discovery configs.
   */
  readonly unlimitedQueues?: boolean;
}

async function pickBroker(options: BrokerOptions): Promise<TestBroker> {
  const external = process.env.MQTT_TEST_URL;
  if (external) return { url: external, kind: "external", stop: async () => {} };
  const binary = findMosquitto();
  if (binary) return startMosquitto(binary, options);
  const container = await startContainer();
  if (container) return container;
  if (process.env.REQUIRE_MOSQUITTO === "1") {
    throw new Error(
      "REQUIRE_MOSQUITTO=1 but no mosquitto binary is on PATH (install Debian's mosquitto package) and no Docker engine answers",
    );
  }
  let embedded = await startEmbeddedBroker({ port: 0 });
  return {
    url: embedded.url,
    kind: "embedded",
    stop: () => embedded.close(),
    restart: async () => {
      const port = embedded.port;
      await embedded.close();
      embedded = await startEmbeddedBroker({ port });
    },
  };
}

export function findMosquitto(): string | undefined {
  for (const candidate of ["mosquitto", "/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"]) {
    const probe = spawnSync(candidate, ["-h"], { stdio: "ignore" });
    // mosquitto -h exits 3 after printing its usage; only a spawn error means it is missing.
    if (!probe.error) return candidate;
  }
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startMosquitto(binary: string, options: BrokerOptions): Promise<TestBroker> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "e2m-mosquitto-"));
  const config = join(dir, "mosquitto.conf");
  writeFileSync(
    config,
    `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\nlog_type error\n${options.unlimitedQueues ? "max_queued_messages 0\n" : ""}`,
  );
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(binary, ["-c", config], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await waitForPort(port, child, () => stderr);
    return child;
  };
  let child = await launch();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    kind: "mosquitto",
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async () => {
      await stopChild(child);
      child = await launch();
    },
  };
}

export async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited with ${child.exitCode}: ${stderr()}`);
    if (await canConnect(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill("SIGKILL");
  throw new Error(`mosquitto did not listen on port ${port} within 5 s: ${stderr()}`);
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    import("node:net").then(({ connect }) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Testcontainers only where a Docker engine answers; any failure means "not here". */
async function startContainer(): Promise<TestBroker | undefined> {
  try {
    const { GenericContainer, getContainerRuntimeClient } = await import("testcontainers");
    await getContainerRuntimeClient();
    const container = await new GenericContainer("eclipse-mosquitto:2")
      .withExposedPorts(1883)
      .withCopyContentToContainer([
        { content: "listener 1883\nallow_anonymous true\n", target: "/mosquitto/config/mosquitto.conf" },
      ])
      .start();
    return {
      url: `mqtt://${container.getHost()}:${container.getMappedPort(1883)}`,
      kind: "testcontainers",
      stop: async () => {
        await container.stop();
      },
    };
  } catch {
    return undefined;
  }
}

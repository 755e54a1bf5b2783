// Runs the daemon in its own process for the daemon benchmark, so that its memory figure is its own.
// The benchmark runs it as transpiled JavaScript under plain node, as `node dist/` would run.
import type { ConfigInput } from "../src/config/index.js";

export type ToChild =
  | {
      type: "start";
      config: ConfigInput;
      /** Leave out the list of discovery topics (a fleet's runs to hundreds of thousands); the counts per device still come. */
      countsOnly?: boolean;
    }
  | {
      type: "memory";
      /** Collect garbage first (the default): the figure is then what the daemon holds, not what it has yet to free. */
      gc?: boolean;
    }
  | { type: "stop" };

export type FromChild =
  | {
      type: "started";
      /** Epoch ms with sub-millisecond precision, comparable across processes. */
      calledAt: number;
      resolvedAt: number;
      /** The inventory's discovery topics, before anything is learnt from readings. */
      discoveryTopics: string[];
      /** How many of those configs each device has (the dongle's under its own id). */
      discoveryCounts: Record<string, number>;
      /** Resident memory once the modules were loaded, before startApp(). */
      loadedRssBytes: number;
    }
  | {
      type: "memory";
      rssBytes: number;
      heapBytes: number;
      /** The most the process has ever held resident (the kernel's figure). */
      maxRssBytes: number;
    }
  | { type: "stopped" }
  | { type: "failed"; message: string };

const epochMs = (): number => performance.timeOrigin + performance.now();
const send = (message: FromChild): void => {
  process.send?.(message);
};
const memory = (gc = true): FromChild => {
  if (gc) globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { type: "memory", rssBytes: rss, heapBytes: heapUsed, maxRssBytes: process.resourceUsage().maxRSS * 1024 };
};

process.once("message", (message: ToChild) => {
  if (message.type === "start") void run(message.config, message.countsOnly ?? false);
});

async function run(input: ConfigInput, countsOnly: boolean): Promise<void> {
  // As bin/energy2mqtt.js does for `run`, before the modules load.
  const { tuneV8ForDaemon } = await import("../src/memory.js");
  tuneV8ForDaemon();
  const [{ startApp }, { configSchema }, { createLogger }, discovery, { Topics }, { devicesOf }] = await Promise.all([
    import("../src/app.js"),
    import("../src/config/index.js"),
    import("../src/log.js"),
    import("../src/homeassistant/discovery.js"),
    import("../src/homeassistant/topics.js"),
    import("../src/telemetry/inventory.js"),
  ]);
  const config = configSchema.parse(input);
  const loaded = memory();
  try {
    const calledAt = epochMs();
    const app = await startApp(config, createLogger(config.log.level), "bench");
    const resolvedAt = epochMs();
    const topics = new Topics(config.mqtt.base_topic, config.homeassistant.discovery_prefix);
    const origin = { name: "energy2mqtt", sw_version: "bench", support_url: "" };
    // A device at a time: a fleet's configs all at once would be hundreds of MB of this process's memory.
    const discoveryTopics: string[] = [];
    const discoveryCounts: Record<string, number> = {};
    for (const device of devicesOf(app.inventory)) {
      for (const { topic } of discovery.deviceDiscoveryMessages(app.inventory, device, { topics, origin })) {
        if (!countsOnly) discoveryTopics.push(topic);
        // <prefix>/<component>/<device>/<entity>/config
        const id = topic.split("/").at(-3) ?? "";
        discoveryCounts[id] = (discoveryCounts[id] ?? 0) + 1;
      }
    }
    send({
      type: "started",
      calledAt,
      resolvedAt,
      discoveryTopics,
      discoveryCounts,
      loadedRssBytes: loaded.type === "memory" ? loaded.rssBytes : Number.NaN,
    });
    process.on("message", (next: ToChild) => {
      if (next.type === "memory") send(memory(next.gc ?? true));
      if (next.type === "stop") void app.stop().then(() => send({ type: "stopped" }));
    });
  } catch (error) {
    send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  }
  process.on("disconnect", () => process.exit(0));
}

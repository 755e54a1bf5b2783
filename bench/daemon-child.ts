// Runs the daemon in its own process for the daemon benchmark, so that its memory figure is its own.
// The benchmark runs it as transpiled JavaScript under plain node, as `node dist/` would run.
import type { ConfigInput } from "../src/config/index.js";

export type ToChild = { type: "start"; config: ConfigInput } | { type: "memory" } | { type: "stop" };

export type FromChild =
  | {
      type: "started";
      /** Epoch ms with sub-millisecond precision, comparable across processes. */
      calledAt: number;
      resolvedAt: number;
      /** The inventory's discovery topics, before anything is learnt from readings. */
      discoveryTopics: string[];
      /** Resident memory once the modules were loaded, before startApp(). */
      loadedRssBytes: number;
    }
  | { type: "memory"; rssBytes: number; heapBytes: number }
  | { type: "stopped" }
  | { type: "failed"; message: string };

const epochMs = (): number => performance.timeOrigin + performance.now();
const send = (message: FromChild): void => {
  process.send?.(message);
};
const memory = (): FromChild => {
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { type: "memory", rssBytes: rss, heapBytes: heapUsed };
};

process.once("message", (message: ToChild) => {
  if (message.type === "start") void run(message.config);
});

async function run(input: ConfigInput): Promise<void> {
  // As bin/energy2mqtt.js does for `run`, before the modules load.
  const { tuneV8ForDaemon } = await import("../src/memory.js");
  tuneV8ForDaemon();
  const [{ startApp }, { configSchema }, { createLogger, LogFeed }, { discoveryMessages }, { Topics }] =
    await Promise.all([
      import("../src/app.js"),
      import("../src/config/index.js"),
      import("../src/log.js"),
      import("../src/homeassistant/discovery.js"),
      import("../src/homeassistant/topics.js"),
    ]);
  const config = configSchema.parse(input);
  const loaded = memory();
  try {
    const calledAt = epochMs();
    // As `energy2mqtt run` does: the log format chosen, and warnings fed to bridge/logging.
    const feed = new LogFeed();
    const logger = createLogger(config.log.level, { format: config.log.format, feed });
    const app = await startApp(config, logger, "bench", { feed });
    const resolvedAt = epochMs();
    const topics = new Topics(config.mqtt.base_topic, config.homeassistant.discovery_prefix);
    const origin = { name: "energy2mqtt", sw_version: "bench", support_url: "" };
    const discoveryTopics = discoveryMessages(app.inventory, { topics, origin }).map((m) => m.topic);
    send({
      type: "started",
      calledAt,
      resolvedAt,
      discoveryTopics,
      loadedRssBytes: loaded.type === "memory" ? loaded.rssBytes : Number.NaN,
    });
    process.on("message", (next: ToChild) => {
      if (next.type === "memory") send(memory());
      if (next.type === "stop") void app.stop().then(() => send({ type: "stopped" }));
    });
  } catch (error) {
    send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  }
  process.on("disconnect", () => process.exit(0));
}

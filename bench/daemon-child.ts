// Runs the daemon in its own process for the daemon benchmark, so that its memory figure is its own.
// The benchmark runs it as transpiled JavaScript under plain node, as `node dist/` would run.
import type { Config, ConfigInput } from "../src/config/index.js";
import type { Inventory } from "../src/sources/index.js";

export type ToChild =
  | {
      type: "start";
      config: ConfigInput;
      /**
       * Say nothing of discovery at start: a fleet's expected configs come on request, once the
       * measuring is over, so that working them out is not part of the daemon's figures.
       */
      summaryLater?: boolean;
      /** The bench's clock speed, when the intervals are divided by it: the summary also says what the daemon would plan at 1x. */
      speed?: number;
    }
  | {
      type: "memory";
      /** Collect garbage first (the default): the figure is then what the daemon holds, not what it has yet to free. */
      gc?: boolean;
    }
  | { type: "summary" }
  | { type: "stop" };

export type FromChild =
  | {
      type: "started";
      /** Epoch ms with sub-millisecond precision, comparable across processes. */
      calledAt: number;
      resolvedAt: number;
      /** The inventory's discovery topics, before anything is learnt from readings (empty with summaryLater). */
      discoveryTopics: string[];
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
  | {
      type: "summary";
      /** How many discovery configs the inventory gives each device (a dongle's under its own id). */
      discoveryCounts: Record<string, number>;
      /** The start-up line the daemon would log at 1x (intervals and budget scaled back), when a speed was given. */
      planAtRealSpeed?: string;
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
  if (message.type === "start") void run(message.config, message.summaryLater ?? false, message.speed);
});

/** What the daemon's telemetry would plan with every interval × speed on a budget ÷ speed, by its own code. */
async function planAtRealSpeed(config: Config, inventory: Inventory, speed: number): Promise<string> {
  const [{ planPolls, describePlan, POLL_SHARE }, { cloudSource }, { RateBudget }, { CloudClient }] = await Promise.all(
    [
      import("../src/telemetry/poll-plan.js"),
      import("../src/sources/index.js"),
      import("../src/cloud/rate-budget.js"),
      import("../src/cloud/client.js"),
    ],
  );
  const limit = Math.round(config.cloud.requests_per_minute / speed);
  const budget = new RateBudget({ limit, windowMs: 60_000 });
  // Only for building the resources: nothing is polled.
  const client = new CloudClient({ baseUrl: "http://127.0.0.1/v1", token: "plan-only", budget });
  const { inventory: _every, ...poll } = config.poll;
  const scaled = Object.fromEntries(Object.entries(poll).map(([key, ms]) => [key, ms * speed])) as typeof poll;
  const plan = planPolls({
    inventory,
    poll: scaled,
    availablePerMinute: budget.allowance("live") * POLL_SHARE,
    build: (p) => cloudSource(client).resources(inventory, p, Date.now),
  });
  return describePlan(plan, inventory, limit);
}

async function run(input: ConfigInput, summaryLater: boolean, speed: number | undefined): Promise<void> {
  // As bin/energy2mqtt.js does for `run`, before the modules load.
  const { tuneV8ForDaemon } = await import("../src/cli/memory.js");
  tuneV8ForDaemon();
  const [
    { startApp },
    { configSchema },
    { createLogger, LogFeed },
    discovery,
    { Topics },
    { devicesOf },
    { systemClock },
  ] = await Promise.all([
    import("../src/app/index.js"),
    import("../src/config/index.js"),
    import("../src/log/log.js"),
    import("../src/homeassistant/discovery.js"),
    import("../src/homeassistant/topics.js"),
    import("../src/sources/index.js"),
    import("../src/time/clock.js"),
  ]);
  const config = configSchema.parse(input);
  const loaded = memory();
  try {
    const calledAt = epochMs();
    // As `energy2mqtt run` does: the log format chosen, and warnings fed to bridge/logging.
    const feed = new LogFeed();
    const logger = createLogger(config.log.level, { format: config.log.format, feed });
    const app = await startApp(config, logger, "bench", { feed, clock: systemClock });
    const resolvedAt = epochMs();
    const topics = new Topics(config.mqtt.base_topic, config.homeassistant.discovery_prefix);
    const origin = { name: "energy2mqtt", sw_version: "bench", support_url: "" };
    /**
     * The configs announced at start-up, a device at a time (a fleet's all at once would be
     * hundreds of MB): the dongles', and each device's entities that need no data first (those
     * that do are announced once their data comes, and an EMS child's never).
     */
    const eachTopic = (visit: (topic: string) => void): void => {
      const context = { topics, origin, details: () => ({ seenKeys: [] }) };
      for (const inverter of app.inventory.inverters)
        for (const { topic } of discovery.dongleDiscoveryMessages(inverter, context)) visit(topic);
      for (const device of devicesOf(app.inventory)) {
        for (const { topic } of discovery.deviceDiscoveryMessages(device, app.inventory, context)) visit(topic);
      }
    };
    const discoveryTopics: string[] = [];
    if (!summaryLater) eachTopic((topic) => discoveryTopics.push(topic));
    send({
      type: "started",
      calledAt,
      resolvedAt,
      discoveryTopics,
      loadedRssBytes: loaded.type === "memory" ? loaded.rssBytes : Number.NaN,
    });
    process.on("message", (next: ToChild) => {
      if (next.type === "memory") send(memory(next.gc ?? true));
      if (next.type === "summary") {
        const discoveryCounts: Record<string, number> = {};
        eachTopic((topic) => {
          // <prefix>/<component>/<device>/<entity>/config
          const id = topic.split("/").at(-3) ?? "";
          discoveryCounts[id] = (discoveryCounts[id] ?? 0) + 1;
        });
        void (speed ? planAtRealSpeed(config, app.inventory, speed) : Promise.resolve(undefined)).then((plan) =>
          send({ type: "summary", discoveryCounts, ...(plan ? { planAtRealSpeed: plan } : {}) }),
        );
      }
      if (next.type === "stop") void app.stop().then(() => send({ type: "stopped" }));
    });
  } catch (error) {
    send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  }
  process.on("disconnect", () => process.exit(0));
}

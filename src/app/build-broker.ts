import type { Config } from "../config/index.js";
import type { Logger } from "../log/log.js";
import type { Lifecycle } from "./lifecycle.js";

/** The embedded broker's first choice; when it is taken the next free port is used, and the banner says so. */
export const EMBEDDED_BROKER_PORT = 1883;

/** The configured broker, or the embedded one started when none is (stopped with the daemon). */
export async function startBroker(
  config: Config,
  logger: Logger,
  life: Lifecycle,
): Promise<{ url: string; moved: boolean }> {
  if (config.mqtt.url) return { url: config.mqtt.url, moved: false };
  // Loaded only when needed, like the simulator: a daemon with its own broker never pays for it.
  const { startEmbeddedBroker } = await import("../broker/index.js");
  const { username, password } = config.mqtt;
  const broker = await startEmbeddedBroker({
    host: "127.0.0.1",
    port: EMBEDDED_BROKER_PORT,
    portAttempts: 20,
    ...(username !== undefined ? { credentials: { username, password: password ?? "" } } : {}),
  });
  life.onStop(() => broker.close());
  const moved = broker.port !== EMBEDDED_BROKER_PORT;
  const where = moved ? `on port ${broker.port} (${EMBEDDED_BROKER_PORT} is taken)` : `on port ${broker.port}`;
  logger.info(
    { url: broker.url, credentials: username !== undefined },
    username !== undefined
      ? `no MQTT broker configured: started the embedded broker ${where}; it takes only mqtt.username and mqtt.password`
      : `no MQTT broker configured: started the embedded broker ${where} (anonymous clients welcome; set mqtt.username and mqtt.password to require them)`,
  );
  return { url: broker.url, moved };
}

import type { Logger } from "../log/log.js";
import type { Mqtt } from "../mqtt/index.js";

/** Publishes on the one connection; a failure is logged, never thrown. */
export type Send = (topic: string, payload: string, retain: boolean) => Promise<void>;

/** `stopping` tells when publishes cut short by our own shutdown are expected, not worth a warning. */
export function sender(mqtt: Mqtt, logger: Logger, stopping: () => boolean): Send {
  return async (topic, payload, retain) => {
    try {
      await mqtt.publish(topic, payload, { retain });
    } catch (error) {
      if (stopping()) return;
      logger.warn({ topic, err: (error as Error).message }, "MQTT publish failed");
    }
  };
}

import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { ControlGate } from "../control/index.js";
import type { Mqtt } from "../mqtt/index.js";
import type { AccountReads } from "../sources/index.js";
import { type ClockSyncNow, runBridgeAction } from "./bridge-actions.js";
import type { Send } from "./publisher.js";
import type { Topics } from "./topics.js";
import type { WorkInFlight } from "./work.js";

/** Actions that are not one entity, `<base>/bridge/request/<action>`, answered on `<base>/bridge/response/<action>`. */
export function bridgeRequestsFeature(options: {
  readonly bus: EventBus;
  readonly mqtt: Mqtt;
  readonly topics: Topics;
  readonly client: AccountReads;
  readonly gate: ControlGate;
  readonly syncClock?: ClockSyncNow | undefined;
  readonly send: Send;
  readonly work: WorkInFlight;
}): Feature {
  const { bus, topics } = options;
  const name = "homeassistant-bridge-requests";
  const prefix = `${topics.base}/bridge/request/`;
  const handle = async (action: string, payload: string): Promise<void> => {
    const response = await runBridgeAction(action, payload, {
      client: options.client,
      gate: options.gate,
      syncClock: options.syncClock,
    });
    await options.send(topics.bridgeResponse(action), JSON.stringify(response), false);
  };
  return {
    name,
    async start() {
      bus.on("mqttMessage", name, ({ topic, payload }) => {
        if (topic.startsWith(prefix)) options.work.track(handle(topic.slice(prefix.length), payload));
      });
      await options.mqtt.subscribe(topics.bridgeRequestWildcard);
    },
    stop() {
      bus.removeAll(name);
    },
  };
}

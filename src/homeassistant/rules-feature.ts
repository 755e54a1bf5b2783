import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Mqtt } from "../mqtt/index.js";
import type { RulesEntities } from "./rules-entities.js";
import type { WorkInFlight } from "./work.js";

/**
 * The rules' entities on the bus: their commands and retained configs from MQTT, the grid
 * counters for today's cost, and the rules' state again when they changed elsewhere (the web page).
 */
export function rulesEntitiesFeature(options: {
  readonly bus: EventBus;
  readonly mqtt: Mqtt;
  readonly rules: RulesEntities;
  readonly work: WorkInFlight;
}): Feature {
  const { bus, rules } = options;
  const name = "homeassistant-rules";
  return {
    name,
    async start() {
      bus.on("mqttMessage", name, ({ topic, payload }) => {
        if (rules.handles(topic)) options.work.track(rules.onMessage(topic, payload));
      });
      bus.on("rulesChanged", name, () => rules.refreshState());
      for (const filter of rules.subscriptions) await options.mqtt.subscribe(filter);
    },
    stop() {
      bus.removeAll(name);
      rules.stop();
    },
  };
}

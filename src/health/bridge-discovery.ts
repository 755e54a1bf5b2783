import { type DiscoveryMessage, type Origin, slug, type Topics } from "../homeassistant/index.js";

/**
 * Home Assistant discovery for the daemon itself: one device, "energy2mqtt bridge", with the
 * cloud connection, the requests per minute and the last problem logged, all read from the
 * retained `<base>/bridge/health`. Diagnostic entities: they describe the bridge, not the house.
 */

export const BRIDGE_ENTITY_KEYS = ["cloud_connection", "requests_per_minute", "last_error"] as const;

/** Discovery node and device identifier; from the base topic so that two daemons do not collide. */
export const bridgeNode = (topics: Topics): string => `${slug(topics.base) || "energy2mqtt"}_bridge`;

export const bridgeTopics = (topics: Topics) => ({
  info: `${topics.base}/bridge/info`,
  health: `${topics.base}/bridge/health`,
  logging: `${topics.base}/bridge/logging`,
});

export function bridgeDiscoveryMessages(topics: Topics, origin: Origin): DiscoveryMessage[] {
  const node = bridgeNode(topics);
  const health = bridgeTopics(topics).health;
  const tail = {
    availability: [
      {
        topic: topics.bridgeState,
        value_template: "{{ value_json.state }}",
        payload_available: "online",
        payload_not_available: "offline",
      },
    ],
    device: {
      identifiers: [node],
      name: "energy2mqtt bridge",
      manufacturer: "energy2mqtt",
      model: "Bridge",
      sw_version: origin.sw_version,
    },
    origin: { name: origin.name, sw_version: origin.sw_version, support_url: origin.support_url },
    entity_category: "diagnostic",
    state_topic: health,
  };
  const entity = (component: string, key: (typeof BRIDGE_ENTITY_KEYS)[number], fields: Record<string, unknown>) => ({
    topic: topics.discovery(component, node, key),
    payload: { unique_id: `${node}_${key}`, default_entity_id: `${component}.${node}_${key}`, ...fields, ...tail },
  });
  return [
    entity("binary_sensor", "cloud_connection", {
      name: "Cloud connection",
      device_class: "connectivity",
      value_template: "{{ value_json.cloud_connection | default(none) }}",
      payload_on: "ON",
      payload_off: "OFF",
      json_attributes_topic: health,
      json_attributes_template: "{{ value_json.cloud | tojson }}",
    }),
    entity("sensor", "requests_per_minute", {
      name: "Cloud requests per minute",
      icon: "mdi:api",
      unit_of_measurement: "requests/min",
      state_class: "measurement",
      value_template: "{{ value_json.requests_per_minute | default(none) }}",
      json_attributes_topic: health,
      json_attributes_template: "{{ value_json.requests | tojson }}",
    }),
    entity("sensor", "last_error", {
      name: "Last error or warning",
      icon: "mdi:alert-circle-outline",
      // At most 255 characters, as a state must be; the whole event is in bridge/health and bridge/logging.
      value_template: "{{ value_json.last_error_text | default(none) }}",
    }),
  ];
}

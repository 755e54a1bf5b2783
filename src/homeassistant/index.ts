export { type BridgeOptions, HomeAssistantBridge } from "./bridge.js";
export type { DiscoveryMessage, Origin } from "./discovery.js";
export { findEntity, slug } from "./entities/index.js";
export { type HomeAssistantFeature, homeAssistantFeature } from "./feature.js";
export { MqttRefusedError, redactUrl } from "./mqtt-connection.js";
export { probeMqtt } from "./mqtt-probe.js";
export { type MqttTls, MqttTlsFileError, readMqttTls } from "./mqtt-tls.js";
export { Topics } from "./topics.js";

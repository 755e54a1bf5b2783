export { probeOptions, redactUrl } from "./client-options.js";
export { MqttConnection, type MqttConnectionOptions, MqttRefusedError, refusal } from "./connection.js";
export { type Mqtt, type MqttFeatureOptions, mqttFeature } from "./feature.js";
export { MAX_PAYLOAD_BYTES, oversized, quotePayload } from "./payload-limit.js";
export { type MqttProbe, type ProbeOptions, probeMqtt } from "./probe.js";
export { type MqttTls, MqttTlsFileError, readMqttTls } from "./tls.js";
export { topicMatches } from "./topic-match.js";

export { type EmbeddedBroker, type EmbeddedBrokerOptions, startEmbeddedBroker } from "./embedded-broker.js";

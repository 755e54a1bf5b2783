import type { Feature } from "../bus/feature.js";
import { MqttRefusedError } from "../mqtt/index.js";
import { StartupError } from "./errors.js";
import type { Lifecycle } from "./lifecycle.js";

/**
 * Starts the features in the order given (consumers first, the producers of events last, so that
 * nothing they say is missed); each is halted at once and stopped in reverse at the stop.
 */
export async function startFeatures(features: readonly Feature[], life: Lifecycle): Promise<void> {
  for (const feature of features) {
    if (feature.halt) life.onHalt(() => feature.halt?.());
    life.onStop(async () => feature.stop());
    await startFeature(feature);
    life.alive();
  }
}

/** Starts a feature; a broker that refuses the connection is a configuration error (exit 2). */
async function startFeature(feature: Feature): Promise<void> {
  try {
    await feature.start();
  } catch (error) {
    throw error instanceof MqttRefusedError ? new StartupError(error.message, 2) : error;
  }
}

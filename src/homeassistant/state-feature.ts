import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import { StateChanges } from "../telemetry/index.js";
import type { DeviceStates } from "./device-states.js";
import type { DiscoveryPublisher } from "./discovery-publisher.js";
import { clockProblemState, freshnessState, pathState } from "./entities/index.js";

/**
 * Telemetry into Home Assistant: readings and freshness become states, availability verdicts
 * availability, and a new inventory new states and discovery; a device whose layout changed
 * gets its discovery again.
 */
export function stateFeature(options: {
  readonly bus: EventBus;
  readonly states: DeviceStates;
  readonly discovery: DiscoveryPublisher;
}): Feature {
  const { bus, states, discovery } = options;
  const name = "homeassistant-state";
  return {
    name,
    start() {
      states.onLearnt = (id) => discovery.publishDevice(id);
      // One fetched answer per poll: its state, when it changed since the last one shown.
      const changes = new StateChanges();
      bus.on("fetched", name, (fetched) => {
        const state = changes.of(fetched);
        if (state) states.reading(state);
      });
      bus.on("availability", name, ({ device, available }) => states.availability(device, available));
      bus.on("freshness", name, ({ device, stale }) => states.applyState(device, freshnessState(stale)));
      bus.on("devicePath", name, ({ device, path }) => states.report(device, pathState(path)));
      bus.on("clockProblem", name, ({ device, problem }) => states.report(device, clockProblemState(problem)));
      bus.on("inventoryChanged", name, ({ inventory }) => {
        states.setInventory(inventory);
        if (states.announced) void discovery.publishAll(false);
      });
    },
    stop() {
      bus.removeAll(name);
    },
  };
}

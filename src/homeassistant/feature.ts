import type { EventBus } from "../bus.js";
import { changedDevice } from "../control/index.js";
import type { Feature } from "../feature.js";
import { type Inventory, StateChanges } from "../telemetry/index.js";
import type { HomeAssistantBridge } from "./bridge.js";
import { freshnessState } from "./entities/index.js";

export interface HomeAssistantFeature extends Feature {
  /** Settles once the devices are announced (the first round of polls is in, or its time ran out). */
  readonly announced: Promise<void>;
}

/**
 * The Home Assistant bridge on the bus: readings and availability become states, a new inventory
 * becomes discovery, and the devices are announced after telemetry's first round.
 */
export function homeAssistantFeature(options: {
  readonly bridge: HomeAssistantBridge;
  readonly bus: EventBus;
  readonly inventory: () => Inventory;
  /** The bridge's share of a stop. */
  readonly stopMs: number;
}): HomeAssistantFeature {
  const { bridge, bus } = options;
  const name = "homeassistant";
  let firstRound: () => void = () => undefined;
  const firstRoundIn = new Promise<void>((resolve) => {
    firstRound = resolve;
  });
  let announced: Promise<void> = Promise.resolve();

  return {
    name,
    get announced() {
      return announced;
    },
    async start() {
      const changes = new StateChanges();
      bus.on("fetched", name, (fetched) => {
        const state = changes.of(fetched);
        if (state) bridge.reading(state);
      });
      bus.on("availability", name, (reading) => bridge.reading(reading));
      bus.on("freshness", name, ({ device, stale }) => bridge.applyState(device, freshnessState(stale)));
      bus.on("inventoryChanged", name, ({ inventory }) => bridge.setInventory(inventory));
      bus.on("firstRound", name, () => firstRound());
      // Whoever asked (a rule, the CLI, a bridge action), Home Assistant shows what the gate now knows.
      bus.on("changeApplied", name, (event) => {
        const device = changedDevice(event);
        if (event.outcome.ok && !event.outcome.skipped && device) bridge.showControls(device);
      });
      bus.on("rulesChanged", name, () => bridge.rulesChanged());
      await bridge.connect(options.inventory());
      announced = bridge.announceAfter(firstRoundIn);
    },
    async stop() {
      bus.removeAll(name);
      firstRound();
      await bridge.stop(options.stopMs);
    },
  };
}

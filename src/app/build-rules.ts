import type { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import { type ControlGate, cloudDeviceReads } from "../control/index.js";
import type { HomeAssistant } from "../homeassistant/index.js";
import type { Logger } from "../log/log.js";
import type { Mqtt } from "../mqtt/index.js";
// biome-ignore lint/style/noRestrictedImports: past the face on purpose: rules/index.ts loads the whole engine, and the rules load only when a configuration names them.
import { type RulesFeature, rulesFeature } from "../rules/feature.js";
import type { LoadedRules } from "../rules/index.js";
import type { Store } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";

/**
 * Whether the rules are still starting: until they are attached, a command to them is told to wait
 * rather than that there are none.
 */
export class RulesStart {
  pending: boolean;
  private attached = Promise.resolve();

  constructor(
    private readonly ha: HomeAssistant,
    rulesFile: LoadedRules | undefined,
  ) {
    this.pending = rulesFile !== undefined;
    ha.rulesStarting(this.pending);
  }

  /** Home Assistant shows the rules once it has announced the devices. */
  attachOn(bus: EventBus): void {
    bus.on("rulesStarted", "homeassistant-rules", ({ runtime }) => {
      this.attached = this.ha.announced.then(() => this.ha.attachRules(runtime));
      return this.attached;
    });
  }

  /** Once the rules are attached, or started without them (no store to keep their promises): not "starting" any more. */
  async settled(rules: RulesFeature): Promise<void> {
    await this.ha.announced;
    await rules.started;
    await this.attached;
    this.pending = false;
    if (!rules.runtime) this.ha.rulesStarting(false);
  }
}

/** The rules the configuration names, as a feature that changes devices through the gate. */
export function buildRules(options: {
  readonly config: Config;
  readonly rulesFile: LoadedRules | undefined;
  readonly gate: ControlGate;
  readonly store: Store | undefined;
  readonly first: Inventory;
  readonly mqtt: Mqtt;
  readonly start: RulesStart;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
}): RulesFeature {
  const { config, gate, bus } = options;
  const rules = rulesFeature({
    bus,
    loaded: options.rulesFile,
    gate,
    reads: cloudDeviceReads(gate.reads),
    store: options.store,
    inventory: options.first,
    logger: options.logger,
    clock: options.clock,
    dryRun: config.dry_run,
    mqtt: options.mqtt,
  });
  options.start.attachOn(bus);
  return rules;
}

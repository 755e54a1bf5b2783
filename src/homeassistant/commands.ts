import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { ChangeOutcome, ChangeRequest, ControlGate } from "../control/index.js";
import type { Logger } from "../log/log.js";
import { type Mqtt, oversized } from "../mqtt/index.js";
import type { ClockSyncNow } from "./bridge-actions.js";
import type { DeviceStates } from "./device-states.js";
import { commandFor, entitiesFor } from "./entities/index.js";
import { modeSteps } from "./givtcp/mode.js";
import { GIVTCP_MODE_COMMAND } from "./givtcp/names.js";
import type { Send } from "./publisher.js";
import { RULES_DEVICE } from "./rules-discovery.js";
import type { Topics } from "./topics.js";
import type { WorkInFlight } from "./work.js";

/**
 * Commands from Home Assistant, `<base>/<device>/set/<entity>`: parsed against the entity,
 * applied through the gate, answered on `<base>/<device>/result`. The device's state follows
 * from the gate's `changeApplied`, like any other change's.
 */
export function commandsFeature(options: {
  readonly bus: EventBus;
  readonly mqtt: Mqtt;
  readonly topics: Topics;
  readonly states: DeviceStates;
  readonly gate: Pick<ControlGate, "apply" | "refuse" | "controlValues">;
  /** The Sync clock button: as `bridge/request/clock/sync`, when the daemon sets clocks. */
  readonly syncClock?: ClockSyncNow | undefined;
  readonly send: Send;
  readonly work: WorkInFlight;
  readonly logger: Logger;
}): Feature {
  const { bus, topics, states, gate, send, logger } = options;
  const name = "homeassistant-commands";

  const handle = async (id: string, entity: string, payload: string): Promise<void> => {
    const device = states.devices.get(id);
    const result = (outcome: { ok: boolean; code?: number | null; message: string }) =>
      send(
        topics.result(id),
        JSON.stringify({ entity, ok: outcome.ok, code: outcome.code ?? null, message: outcome.message }),
        false,
      );
    /** A command refused before it became a change: answered, and recorded in the audit log. */
    const refuse = (reason: string) => {
      const target = device
        ? {
            targetKind: device.kind,
            target: device.kind === "ev_charger" || device.kind === "smart_device" ? device.uuid : device.serial,
          }
        : { targetKind: "device", target: id };
      const request = { entity, payload: payload.length <= 256 ? payload : `${payload.slice(0, 256)}…` };
      return result(
        gate.refuse({ ...target, action: `set:${entity}`, request, reason }, { via: "mqtt", name: entity }),
      );
    };
    const tooBig = oversized(payload, "command");
    if (tooBig) return refuse(tooBig);
    if (!device) return refuse(`no device "${id}" on this account`);
    const key = device.kind === "ev_charger" || device.kind === "smart_device" ? device.uuid : device.serial;
    const details = states.layout(id);
    const requests: ChangeRequest[] = [];
    let clockSync: string | undefined;
    if (entity === GIVTCP_MODE_COMMAND) {
      const has = (own: string) => entitiesFor(device, details).some((one) => one.key === own);
      const steps = modeSteps(payload, has);
      if (!steps.ok) return refuse(steps.message);
      for (const step of steps.steps) {
        const parsed = commandFor(device, step.key, step.payload, gate.controlValues(key), details);
        if (!parsed.ok) return refuse(parsed.message);
        if ("clockSync" in parsed) return refuse(`${step.key} is not a step of a mode`);
        requests.push(parsed.request);
      }
    } else {
      const parsed = commandFor(device, entity, payload, gate.controlValues(key), details);
      if (!parsed.ok) return refuse(parsed.message);
      if ("clockSync" in parsed) clockSync = parsed.clockSync.serial;
      else requests.push(parsed.request);
    }
    let outcome: ChangeOutcome | undefined;
    try {
      if (clockSync !== undefined) {
        if (!options.syncClock) return refuse("this daemon sets no device's clock");
        outcome = await options.syncClock(clockSync, { via: "mqtt", name: entity });
      }
      // A GivTCP mode is a few preset changes, one after another: the first refused stops the rest.
      for (const request of requests) {
        outcome = await gate.apply(request, { via: "mqtt", name: entity });
        if (!outcome.ok) break;
      }
    } catch (error) {
      logger.error({ err: error, device: id, entity }, "command failed");
      return result({ ok: false, message: `the command failed: ${(error as Error).message}` });
    }
    if (outcome) await result(outcome);
  };

  return {
    name,
    async start() {
      bus.on("mqttMessage", name, ({ topic, payload }) => {
        if (!topic.startsWith(`${topics.base}/`)) return;
        const [id, set, entity, ...rest] = topic.slice(topics.base.length + 1).split("/");
        if (!id || id === RULES_DEVICE || set !== "set" || !entity || rest.length > 0) return;
        options.work.track(handle(id, entity, payload));
      });
      await options.mqtt.subscribe(topics.commandWildcard);
    },
    stop() {
      bus.removeAll(name);
    },
  };
}

import { findEntity } from "../homeassistant/index.js";
import { redactUrl } from "../mqtt/index.js";
import { deviceId } from "../telemetry/index.js";
import type { App } from "./index.js";
import { EMBEDDED_BROKER_PORT } from "./index.js";

/** The demo's example change: the battery reserve, which every controllable inverter of the simulator has. */
const EXAMPLE_ENTITY = "battery_operating_range_reserve_percent";

/**
 * What the daemon says once it runs: what it found, where it publishes, and the exact commands
 * to watch it and change something, with the broker's real host and port (the README tells the
 * reader to copy them from here).
 */
export function startupBanner(app: App, baseTopic: string, version: string): string {
  const { inventory } = app;
  const host = hostOf(app.mqttUrl);
  const port = portOf(app.mqttUrl);
  const portFlags = `-h ${host} -p ${port}`;
  const lines = [
    `energy2mqtt ${version} is running with ${inventory.inverters.length} inverter(s), ${inventory.ems.length} EMS, ${inventory.evChargers.length} EV charger(s), ${inventory.smartDevices.length} smart device(s).`,
    app.simulated
      ? `  Cloud:  the built-in simulator at ${app.cloudUrl} (demo house; set cloud.url and cloud.token for your own)`
      : `  Cloud:  ${app.cloudUrl}`,
    ...(app.simulated
      ? [`  Store:  ${app.storePath} (the demo's own; your account's history will not mix with it)`]
      : []),
    `  MQTT:   ${redactUrl(app.mqttUrl)}${app.brokerMoved ? ` (the embedded broker: port ${EMBEDDED_BROKER_PORT} is taken, so it listens on ${port})` : ""}`,
    `  Watch:  mosquitto_sub ${portFlags} -t '${baseTopic}/#' -v`,
  ];
  const example = inventory.inverters.find((inverter) => findEntity(inverter, EXAMPLE_ENTITY) !== undefined);
  if (example) {
    lines.push(
      `  Change: mosquitto_pub ${portFlags} -t ${baseTopic}/${deviceId(example)}/set/${EXAMPLE_ENTITY} -m 20`,
      `          (the answer comes back on ${baseTopic}/${deviceId(example)}/result)`,
    );
  }
  if (app.webUrl) lines.push(`  Web:    ${app.webUrl} (the house now, the plan, the history and every change)`);
  if (app.demoRules)
    lines.push(
      `  Rules:  the demo's own, in dry run (${app.demoRules}): the optimiser's plan is on the page's Plan and in \`npx energy2mqtt rules plan\`; name your own with rules: in a configuration file`,
    );
  lines.push(
    `  Home Assistant: add the MQTT integration with broker ${host} and port ${port}; the devices appear by discovery.`,
    "  Stop: Ctrl-C (it publishes offline and exits within 2 seconds).",
  );
  return lines.join("\n");
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "127.0.0.1";
  }
}

function portOf(url: string): string {
  try {
    return new URL(url).port || "1883";
  } catch {
    return "1883";
  }
}

import { type HealthStatus, healthStatusSchema } from "./status.js";

export interface HealthVerdict {
  readonly healthy: boolean;
  /** One line per finding: why it is unhealthy, or what it looks like when it is not. */
  readonly lines: readonly string[];
}

/**
 * Judges a health file's text: healthy when the daemon wrote it within `maxAgeMs`, MQTT has
 * not been disconnected for longer than that, and no device's values are stale (older than
 * twice its poll interval: what Home Assistant shows would not be live). Cloud failures alone
 * are reported but do not count: restarting the daemon cannot fix an outage of the cloud, nor a
 * cloud that refuses the token (then stale devices are the ones only the cloud carries now).
 */
export function judgeHealth(text: string, nowMs: number, maxAgeMs: number): HealthVerdict {
  let status: HealthStatus;
  try {
    status = healthStatusSchema.parse(JSON.parse(text));
  } catch {
    return { healthy: false, lines: ["the health file is not a status the daemon wrote (damaged or foreign)"] };
  }
  const age = nowMs - Date.parse(status.at);
  const problems: string[] = [];
  if (age > maxAgeMs) {
    problems.push(
      `the daemon (pid ${status.pid}) last wrote its status ${seconds(age)} ago, more than the ${seconds(maxAgeMs)} allowed: it is stopped or stuck`,
    );
  }
  const disconnectedFor = Date.parse(status.at) - Date.parse(status.mqtt.since);
  if (!status.mqtt.connected && disconnectedFor > maxAgeMs) {
    problems.push(`MQTT has been disconnected for ${seconds(disconnectedFor)}: check the broker and mqtt.url`);
  }
  const excused: string[] = [];
  for (const device of status.devices.filter((one) => one.stale)) {
    const age = device.age_seconds === null ? "no values yet" : `its last values are ${device.age_seconds}s old`;
    if (status.cloud.refused) {
      excused.push(`${device.name} (${device.device}) is stale (${age}) while the cloud refuses the daemon`);
      continue;
    }
    problems.push(
      `${device.name} (${device.device}) is stale: ${age}, more than twice its ${device.poll_seconds}s poll interval; see bridge/health and the log for why polls do not answer`,
    );
  }
  const cloud = status.cloud.last_success
    ? `cloud: last answered ${seconds(nowMs - Date.parse(status.cloud.last_success))} ago`
    : "cloud: no successful request yet";
  const refused = status.cloud.refused ? [`cloud: ${status.cloud.refused}`, ...excused] : [];
  if (problems.length > 0) return { healthy: false, lines: [...problems, cloud, ...refused] };
  const mqtt = status.mqtt.connected ? "MQTT connected" : "MQTT reconnecting";
  return {
    healthy: true,
    lines: [`healthy: pid ${status.pid}, status ${seconds(age)} old, ${mqtt}; ${cloud}`, ...refused],
  };
}

function seconds(ms: number): string {
  return `${Math.max(0, Math.round(ms / 1000))}s`;
}

import type { Config } from "../config/index.js";
import { type MqttTls, MqttTlsFileError, readMqttTls } from "../mqtt/index.js";
import type { LoadedRules } from "../rules/index.js";
import { loadDaemonRules } from "./daemon-rules.js";
import { StartupError } from "./errors.js";

/**
 * What the configuration names that can stop start-up before anything starts: its rules file,
 * the broker's TLS files, and `source: auto` without the cloud it falls back on.
 */
export async function readStartFiles(
  config: Config,
  configFile: string | undefined,
  withSources: boolean,
): Promise<{ readonly rulesFile: LoadedRules | undefined; readonly tls: MqttTls | undefined }> {
  const rulesFile = await loadDaemonRules(config, configFile);
  const tls = mqttTlsOrExit(config, configFile);
  if (config.source === "auto" && !config.cloud.url && !withSources)
    throw new StartupError(
      "source: auto reads each device's dongle with the cloud as fallback, so it needs the cloud too: set cloud.url and cloud.token, or source: local for the LAN alone",
      2,
    );
  return { rulesFile, tls };
}

function mqttTlsOrExit(config: Config, configFile: string | undefined): MqttTls | undefined {
  try {
    return readMqttTls(config.mqtt, configFile);
  } catch (error) {
    if (error instanceof MqttTlsFileError) throw new StartupError(error.message, 2);
    throw error;
  }
}

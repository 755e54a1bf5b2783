/** This process's environment without the ENERGY2MQTT_* settings of the machine the tests run on. */
export function settingsFreeEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !name.startsWith("ENERGY2MQTT_")) env[name] = value;
  return env;
}

import { describe, expect, it } from "vitest";
import { daemonEnv, MOSQUITTO, runAddon, SUPERVISOR_TOKEN } from "./addon-harness.js";

const DEFAULTS = {
  cloud_url: "https://api.givenergy.cloud/v1",
  cloud_token: "cloud-secret-token",
  poll_inverter: "60s",
  poll_meter: "5m",
  poll_ems: "60s",
  poll_ev_charger: "30s",
  log_level: "info",
  log_format: "pretty",
  rules_file: "",
  dry_run: false,
};

describe("the add-on's start script", () => {
  it("takes the broker from the Supervisor's MQTT service and the time zone from /info when the user set no broker", async () => {
    const run = await runAddon(DEFAULTS);
    expect(run.code).toBe(0);
    expect(run.seen?.argv).toEqual(["run"]);
    expect(run.seen?.cwd).toBe(run.configDir);
    expect(daemonEnv(run)).toEqual({
      ENERGY2MQTT_CLOUD_URL: "https://api.givenergy.cloud/v1",
      ENERGY2MQTT_CLOUD_TOKEN: "cloud-secret-token",
      ENERGY2MQTT_POLL_INVERTER: "60s",
      ENERGY2MQTT_POLL_METER: "5m",
      ENERGY2MQTT_POLL_EMS: "60s",
      ENERGY2MQTT_POLL_EV_CHARGER: "30s",
      ENERGY2MQTT_LOG_LEVEL: "info",
      ENERGY2MQTT_LOG_FORMAT: "pretty",
      ENERGY2MQTT_DRY_RUN: "false",
      ENERGY2MQTT_MQTT_URL: "mqtt://core-mosquitto:1883",
      ENERGY2MQTT_MQTT_USERNAME: "addons",
      ENERGY2MQTT_MQTT_PASSWORD: "mosquitto-secret-password",
      ENERGY2MQTT_STORE_PATH: `${run.configDir}/energy2mqtt.db`,
      ENERGY2MQTT_WEB_HOST: "0.0.0.0",
      ENERGY2MQTT_WEB_PORT: "8099",
      ENERGY2MQTT_WEB_INGRESS: "true",
      TZ: "Europe/London",
    });
    expect(run.requests.map((r) => r.url).sort()).toEqual(["/info", "/services/mqtt"]);
    for (const request of run.requests) expect(request.authorization).toBe(`Bearer ${SUPERVISOR_TOKEN}`);
    expect(run.seen?.env.SUPERVISOR_TOKEN).toBeUndefined();
    expect(run.stderr).toContain("MQTT broker from core_mosquitto: mqtt://core-mosquitto:1883");
  });

  it("never prints a token or a password", async () => {
    const run = await runAddon({ ...DEFAULTS, mqtt_url: "mqtt://me:url-secret@broker:1883" });
    const quiet = await runAddon(DEFAULTS, { mqtt: undefined });
    for (const output of [run.stderr, (await runAddon(DEFAULTS)).stderr, quiet.stderr]) {
      for (const secret of [SUPERVISOR_TOKEN, "cloud-secret-token", MOSQUITTO.password, "url-secret"])
        expect(output).not.toContain(secret);
    }
    expect(run.stderr).toContain("mqtt://me:***@broker:1883");
  });

  it("uses the user's broker, user and password as set, without asking the Supervisor for MQTT", async () => {
    const run = await runAddon({
      ...DEFAULTS,
      mqtt_url: "mqtts://broker.lan:8883",
      mqtt_username: "energy",
      mqtt_password: "user-password",
    });
    expect(run.code).toBe(0);
    const env = daemonEnv(run);
    expect(env).toMatchObject({
      ENERGY2MQTT_MQTT_URL: "mqtts://broker.lan:8883",
      ENERGY2MQTT_MQTT_USERNAME: "energy",
      ENERGY2MQTT_MQTT_PASSWORD: "user-password",
    });
    expect(run.requests.map((r) => r.url)).toEqual(["/info"]);
  });

  it("connects with TLS when the Supervisor's broker offers it, and sends no empty credentials", async () => {
    const run = await runAddon(DEFAULTS, { mqtt: { ...MOSQUITTO, ssl: true, port: 8883, username: "", password: "" } });
    const env = daemonEnv(run);
    expect(env.ENERGY2MQTT_MQTT_URL).toBe("mqtts://core-mosquitto:8883");
    expect(env.ENERGY2MQTT_MQTT_USERNAME).toBeUndefined();
    expect(env.ENERGY2MQTT_MQTT_PASSWORD).toBeUndefined();
  });

  it("stops with a clear error when the Supervisor has no MQTT service and the user set no broker", async () => {
    const run = await runAddon(DEFAULTS, { mqtt: undefined });
    expect(run.code).toBe(1);
    expect(run.seen).toBeUndefined();
    expect(run.stderr).toContain("no MQTT broker");
    expect(run.stderr).toContain("No mqtt service found");
    expect(run.stderr).toContain("Install and start the Mosquitto broker add-on, or set mqtt_url");
  });

  it("runs on /config/configuration.yaml when there is one, leaving its store path alone, and finds rules there", async () => {
    const run = await runAddon({ ...DEFAULTS, rules_file: "rules.yaml" }, { mqtt: MOSQUITTO, configuration: "{}\n" });
    expect(run.code).toBe(0);
    expect(run.seen?.argv).toEqual(["run", "-c", `${run.configDir}/configuration.yaml`]);
    const env = daemonEnv(run);
    expect(env.ENERGY2MQTT_STORE_PATH).toBeUndefined();
    expect(env.ENERGY2MQTT_RULES).toBe(`${run.configDir}/rules.yaml`);
  });
});

import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { loadConfig } from "../../src/config/index.js";
import { logConfig } from "../../src/config/schema.js";
import { daemonEnv, runAddon } from "./addon-harness.js";

const addon = z
  .object({
    name: z.string(),
    version: z.string(),
    slug: z.string(),
    description: z.string(),
    url: z.string(),
    arch: z.array(z.string()),
    init: z.boolean(),
    services: z.array(z.string()),
    map: z.array(z.string()),
    options: z.record(z.string(), z.unknown()),
    schema: z.record(z.string(), z.string()),
  })
  .parse(parse(readFileSync("addon/config.yaml", "utf8")));

const translations = z
  .object({
    configuration: z.record(z.string(), z.object({ name: z.string().min(1), description: z.string().min(1) })),
  })
  .parse(parse(readFileSync("addon/translations/en.yaml", "utf8")));

const packageVersion = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;

/** A value for every option, and where it must land in the loaded configuration. */
const EVERY_OPTION: Record<
  string,
  { value: unknown; lands: (config: ReturnType<typeof loadConfig>["config"]) => unknown; expected: unknown }
> = {
  cloud_url: { value: "https://cloud.example/v1", lands: (c) => c.cloud.url, expected: "https://cloud.example/v1" },
  cloud_token: { value: "t0ken", lands: (c) => c.cloud.token, expected: "t0ken" },
  cloud_requests_per_minute: { value: 120, lands: (c) => c.cloud.requests_per_minute, expected: 120 },
  poll_inverter: { value: "2m", lands: (c) => c.poll.inverter, expected: 120_000 },
  poll_meter: { value: "10m", lands: (c) => c.poll.meter, expected: 600_000 },
  poll_ems: { value: "90s", lands: (c) => c.poll.ems, expected: 90_000 },
  poll_ev_charger: { value: "15s", lands: (c) => c.poll.ev_charger, expected: 15_000 },
  log_level: { value: "debug", lands: (c) => c.log.level, expected: "debug" },
  rules_file: { value: "/config/my-rules.yaml", lands: (c) => c.rules, expected: "/config/my-rules.yaml" },
  dry_run: { value: true, lands: (c) => c.dry_run, expected: true },
  mqtt_url: { value: "mqtt://broker.lan:1884", lands: (c) => c.mqtt.url, expected: "mqtt://broker.lan:1884" },
  mqtt_username: { value: "me", lands: (c) => c.mqtt.username, expected: "me" },
  mqtt_password: { value: "pw", lands: (c) => c.mqtt.password, expected: "pw" },
  mqtt_base_topic: { value: "house/energy", lands: (c) => c.mqtt.base_topic, expected: "house/energy" },
  discovery_prefix: { value: "ha", lands: (c) => c.homeassistant.discovery_prefix, expected: "ha" },
};

describe("the add-on's config.yaml", () => {
  it("has the add-on's version equal to package.json's", () => {
    expect(addon.version).toBe(packageVersion);
  });

  it("declares what the Supervisor needs: arch, its own init, the MQTT service and the config folder", () => {
    expect(addon.slug).toMatch(/^[a-z0-9_]+$/);
    expect([...addon.arch].sort()).toEqual(["aarch64", "amd64", "armv7"]);
    expect(addon.init).toBe(false);
    expect(readFileSync("addon/Dockerfile", "utf8")).toMatch(/ENTRYPOINT \["\/sbin\/tini"/);
    expect(addon.services).toContain("mqtt:need");
    expect(addon.map).toContain("addon_config:rw");
  });

  it("gives every option with a default a schema entry, and keeps the tokens as passwords", () => {
    for (const option of Object.keys(addon.options)) expect(addon.schema, option).toHaveProperty(option);
    expect(addon.schema.cloud_token).toMatch(/^password\??$/);
    expect(addon.schema.mqtt_password).toMatch(/^password\??$/);
  });

  it("translates every option, and nothing else", () => {
    expect(Object.keys(translations.configuration).sort()).toEqual(Object.keys(addon.schema).sort());
  });

  it("offers only the log levels the configuration accepts", () => {
    const listed = /^list\((.*)\)$/.exec(addon.schema.log_level ?? "")?.[1]?.split("|") ?? [];
    expect(listed.length).toBeGreaterThan(0);
    for (const level of listed) expect(logConfig.shape.level.safeParse(level).success, level).toBe(true);
  });

  it("accepts as cadences exactly what the configuration accepts as durations", () => {
    const pattern = /^match\((.*)\)$/.exec(addon.schema.poll_inverter ?? "")?.[1] ?? "";
    const regex = new RegExp(pattern);
    for (const text of ["60s", "5m", "1h", "1500ms", "1.5m"]) {
      expect(regex.test(text), text).toBe(true);
      expect(loadConfig(undefined, { ENERGY2MQTT_POLL_INVERTER: text }).config.poll.inverter).toBeGreaterThan(0);
    }
    expect(regex.test("5 minutes")).toBe(false);
  });

  it("loads its defaults into a valid configuration through the start script", async () => {
    const run = await runAddon({ ...addon.options, cloud_token: "t" });
    expect(run.code).toBe(0);
    const { config } = loadConfig(undefined, daemonEnv(run));
    expect(config.cloud.url).toBe(addon.options.cloud_url);
    expect(config.poll.meter).toBe(300_000);
    expect(config.store.path).toBe(`${run.configDir}/energy2mqtt.db`);
  });

  it("maps every option onto a real configuration key through ENERGY2MQTT_* overrides", async () => {
    expect(Object.keys(EVERY_OPTION).sort()).toEqual(Object.keys(addon.schema).sort());
    const options = Object.fromEntries(Object.entries(EVERY_OPTION).map(([name, option]) => [name, option.value]));
    const run = await runAddon(options);
    expect(run.code).toBe(0);
    const { config } = loadConfig(undefined, daemonEnv(run));
    for (const [name, option] of Object.entries(EVERY_OPTION))
      expect(option.lands(config), name).toEqual(option.expected);
  });
});

describe("the add-on's image", () => {
  const dockerfile = readFileSync("addon/Dockerfile", "utf8");

  it("installs the npm package at the add-on's version on Node 22 and starts run.mjs", () => {
    expect(dockerfile).toContain(`"energy2mqtt@\${BUILD_VERSION}"`);
    expect(dockerfile).toMatch(/ARG BUILD_FROM=node:22-alpine/);
    const build = parse(readFileSync("addon/build.yaml", "utf8")) as { build_from: Record<string, string> };
    expect(Object.keys(build.build_from).sort()).toEqual([...addon.arch].sort());
    for (const image of Object.values(build.build_from)) expect(image).toBe("node:22-alpine");
    expect(dockerfile).toContain("COPY run.mjs /run.mjs");
    expect(existsSync("addon/run.mjs")).toBe(true);
    expect(dockerfile).toContain('CMD ["node", "/run.mjs"]');
    expect(dockerfile).toMatch(/HEALTHCHECK .*CMD \["energy2mqtt", "health"\]/);
  });

  it("is listed by a repository.yaml at the repository root, with docs and a changelog", () => {
    const repository = parse(readFileSync("repository.yaml", "utf8")) as Record<string, unknown>;
    expect(repository).toMatchObject({ name: expect.any(String), url: expect.any(String) });
    expect(readFileSync("addon/CHANGELOG.md", "utf8")).toContain(`## ${packageVersion}`);
    for (const option of Object.keys(addon.schema)) expect(readFileSync("addon/DOCS.md", "utf8")).toContain(option);
  });
});

import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { loadConfig } from "../../src/config/index.js";
import { logConfig } from "../../src/config/schema.js";
import { daemonEnv, runAddon } from "./addon-harness.js";
import { copyParts, dockerignore, filesUnder, parseDockerfile, readText } from "./dockerfile.js";
import {
  ARCH_ALL,
  appConfigSchema,
  defaultProblem,
  KNOWN_KEYS,
  LEGACY_MAPPING_TYPES,
  RE_SCHEMA_ELEMENT,
  translationsSchema,
} from "./supervisor-rules.js";

const raw = parse(readFileSync("addon/config.yaml", "utf8")) as Record<string, unknown>;
const addon = appConfigSchema
  .extend({
    arch: z.array(z.string()),
    options: z.record(z.string(), z.unknown()),
    schema: z.record(z.string(), z.string()),
    image: z.string(),
    map: z.array(z.union([z.string(), z.object({ type: z.string(), read_only: z.boolean().optional() })])),
  })
  .parse(raw);
const translations = translationsSchema.parse(parse(readFileSync("addon/translations/en.yaml", "utf8")));

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
  log_format: { value: "json", lands: (c) => c.log.format, expected: "json" },
  rules_file: { value: "/config/my-rules.yaml", lands: (c) => c.rules, expected: "/config/my-rules.yaml" },
  dry_run: { value: true, lands: (c) => c.dry_run, expected: true },
  mqtt_url: { value: "mqtt://broker.lan:1884", lands: (c) => c.mqtt.url, expected: "mqtt://broker.lan:1884" },
  mqtt_username: { value: "me", lands: (c) => c.mqtt.username, expected: "me" },
  mqtt_password: { value: "pw", lands: (c) => c.mqtt.password, expected: "pw" },
  mqtt_base_topic: { value: "house/energy", lands: (c) => c.mqtt.base_topic, expected: "house/energy" },
  discovery_prefix: { value: "ha", lands: (c) => c.homeassistant.discovery_prefix, expected: "ha" },
};

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  expect(bytes.subarray(0, 8).toString("hex"), `${path} is a PNG`).toBe("89504e470d0a1a0a");
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("the add-on's config.yaml against the Supervisor's rules", () => {
  it("has only keys the Supervisor knows (it silently drops others: apps/validate.py:556)", () => {
    const unknown = Object.keys(raw).filter((key) => !(KNOWN_KEYS as readonly string[]).includes(key));
    expect(unknown).toEqual([]);
  });

  it("has the add-on's version equal to package.json's, which is also the image's tag", () => {
    expect(addon.version).toBe(packageVersion);
  });

  it("runs on exactly the architectures the Supervisor supports, none deprecated (const.py:414-416)", () => {
    expect([...addon.arch].sort()).toEqual([...ARCH_ALL].sort());
  });

  it("names a prebuilt multi-arch image without a tag, the way the Supervisor accepts it (validate.py:73-105)", () => {
    expect(addon.image).toBe("ghcr.io/energy2mqtt/energy2mqtt-addon");
    // One multi-arch name (docs/apps/publishing.md), not the {arch} fallback.
    expect(addon.image).not.toContain("{arch}");
  });

  it("declares its own init, the MQTT service, and its config folder under the current name (validate.py:261-274)", () => {
    expect(addon.init).toBe(false);
    expect(readFileSync("addon/Dockerfile", "utf8")).toMatch(/ENTRYPOINT \["\/sbin\/tini"/);
    expect(addon.services).toContain("mqtt:need");
    expect(addon.map).toEqual([{ type: "app_config", read_only: false }]);
    for (const entry of addon.map) {
      const type = typeof entry === "string" ? (entry.split(":")[0] ?? "") : entry.type;
      expect(Object.keys(LEGACY_MAPPING_TYPES), type).not.toContain(type);
    }
  });

  it("is backed up cold, so the copy holds a database the daemon closed (validate.py:227-233, apps/app.py begin_backup)", () => {
    expect(addon.backup).toBe("cold");
    // Ignored with a cold backup, and the Supervisor warns about them.
    expect(addon.backup_pre).toBeUndefined();
    expect(addon.backup_post).toBeUndefined();
  });

  it("types every option with a type the Supervisor knows (apps/options.py:31-45), and gives each default a fitting value", () => {
    for (const [option, type] of Object.entries(addon.schema)) expect(RE_SCHEMA_ELEMENT.test(type), option).toBe(true);
    for (const [option, value] of Object.entries(addon.options)) {
      const type = addon.schema[option];
      expect(type, `${option} has a schema entry`).toBeDefined();
      expect(defaultProblem(type ?? "", value), option).toBeUndefined();
    }
    // A required option (no `?`) with no default would stop the add-on until the user sets it.
    for (const [option, type] of Object.entries(addon.schema))
      if (!type.endsWith("?")) expect(addon.options, option).toHaveProperty(option);
    expect(addon.schema.cloud_token).toMatch(/^password\??$/);
    expect(addon.schema.mqtt_password).toMatch(/^password\??$/);
  });

  it("shows the web page as its ingress panel, streamed, on the port the start script binds, and opens no host port", async () => {
    expect(raw).toMatchObject({ ingress: true, ingress_port: 8099, ingress_stream: true });
    expect(raw.panel_icon).toMatch(/^mdi:[a-z0-9-]+$/);
    for (const key of ["ingress_entry", "webui", "ports"]) expect(raw, key).not.toHaveProperty(key);
    const run = await runAddon({ ...addon.options, cloud_token: "t" });
    const { config } = loadConfig(undefined, daemonEnv(run));
    expect(config.web).toMatchObject({ enabled: true, host: "0.0.0.0", port: raw.ingress_port, ingress: true });
  });

  it("translates every option, and nothing else (validate.py:589-605)", () => {
    expect(Object.keys(translations.configuration).sort()).toEqual(Object.keys(addon.schema).sort());
  });

  it("offers only the log levels and formats the configuration accepts", () => {
    for (const [option, field] of [
      ["log_level", logConfig.shape.level],
      ["log_format", logConfig.shape.format],
    ] as const) {
      const listed = /^list\((.*)\)$/.exec(addon.schema[option] ?? "")?.[1]?.split("|") ?? [];
      expect(listed.length, option).toBeGreaterThan(0);
      for (const value of listed) expect(field.safeParse(value).success, value).toBe(true);
    }
    // The add-on's log tab is not a terminal: readable lines unless the user asks for JSON.
    expect(addon.options.log_format).toBe("pretty");
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
    expect(config.log.format).toBe("pretty");
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

describe("the add-on's files", () => {
  it("has no build.yaml: the Supervisor deprecated it (apps/build.py:66-69)", () => {
    expect(existsSync("addon/build.yaml")).toBe(false);
    expect(existsSync("addon/build.json")).toBe(false);
  });

  it("has a square 128x128 icon and a 250x100 logo (docs/apps/presentation.md)", () => {
    expect(pngSize("addon/icon.png")).toEqual({ width: 128, height: 128 });
    expect(pngSize("addon/logo.png")).toEqual({ width: 250, height: 100 });
  });

  it("has a README for the store, docs naming every option, and a changelog entry for this version", () => {
    expect(readFileSync("addon/README.md", "utf8")).toMatch(/^# .*energy2mqtt/m);
    const docs = readFileSync("addon/DOCS.md", "utf8");
    for (const option of Object.keys(addon.schema)) expect(docs).toContain(option);
    expect(docs).toMatch(/cold/i);
    expect(readFileSync("addon/CHANGELOG.md", "utf8")).toContain(`## ${packageVersion}`);
  });

  it("is listed by a repository.yaml at the repository root", () => {
    const repository = parse(readFileSync("repository.yaml", "utf8")) as Record<string, unknown>;
    expect(repository).toMatchObject({ name: expect.any(String), url: expect.any(String) });
  });
});

describe("the add-on's image (addon/Dockerfile, built from the repository root)", () => {
  const instructions = parseDockerfile(readText("addon/Dockerfile"));
  const froms = instructions.filter((i) => i.keyword === "FROM").map((i) => i.args);
  const stageNamed = (name: string) => froms.findIndex((args) => args.endsWith(` AS ${name}`));
  const runsOf = (stage: number) =>
    instructions
      .filter((i) => i.stage === stage && i.keyword === "RUN")
      .map((i) => i.args)
      .join(" && ");

  it("names its base image itself, on Node 22: the Supervisor no longer passes BUILD_FROM (docs/apps/configuration.md)", () => {
    const images = froms.map((args) => args.split(/\s+/)[0] ?? "");
    for (const image of images) expect(image).toMatch(/^(node:22-alpine|runtime(-\$\{TARGETARCH\})?|runtime-\w+)$/);
    expect(instructions.filter((i) => i.args.includes("BUILD_FROM"))).toEqual([]);
  });

  it("compiles the repository's sources and better-sqlite3 in a build stage, keeping only production dependencies", () => {
    const build = runsOf(stageNamed("build"));
    expect(build).toMatch(/apk add .*python3.*make.*g\+\+/);
    expect(build).toContain("npm ci");
    expect(build).toMatch(/npm rebuild better-sqlite3 --build-from-source/);
    expect(build).toContain("npm run build");
    expect(build).toContain("npm prune --omit=dev");
    expect(runsOf(stageNamed("runtime"))).not.toMatch(/g\+\+|python3/);
    // Not the npm registry: the image holds this commit.
    expect(readText("addon/Dockerfile")).not.toMatch(/npm install .*energy2mqtt@/);
  });

  it("copies only paths that exist and that .dockerignore lets into the repository-root context", () => {
    const ignored = dockerignore(readText(".dockerignore"));
    const sources = instructions
      .filter((i) => i.keyword === "COPY")
      .map((i) => copyParts(i.args))
      .filter((copy) => copy.from === undefined)
      .flatMap((copy) => copy.sources);
    expect(sources).toContain("addon/run.mjs");
    for (const source of sources) {
      expect(existsSync(source), `${source} exists`).toBe(true);
      for (const file of filesUnder(source)) expect(ignored(file), `${file} reaches the build`).toBe(false);
    }
  });

  it("labels each architecture's image in Home Assistant's names, and picks the stage by BuildKit's TARGETARCH", () => {
    const labels = instructions.filter((i) => i.keyword === "LABEL");
    const archOf = (stage: string) =>
      labels.find((i) => i.stage === stageNamed(stage))?.args.match(/io\.hass\.arch="(\w+)"/)?.[1];
    expect(archOf("runtime-amd64")).toBe("amd64");
    expect(archOf("runtime-arm64")).toBe("aarch64");
    for (const label of labels) expect(label.args).toContain('io.hass.type="app"');
    expect(froms.at(-1)).toBe(`runtime-\${TARGETARCH}`);
    // A global ARG: declared before the first FROM, so the last FROM can use it.
    expect(readText("addon/Dockerfile").indexOf("ARG TARGETARCH")).toBeLessThan(
      readText("addon/Dockerfile").indexOf("FROM "),
    );
  });

  it("starts run.mjs under tini, with the daemon's health check", () => {
    const runtime = instructions.filter((i) => i.stage === stageNamed("runtime"));
    expect(runtime.find((i) => i.keyword === "CMD")?.args).toBe('["node", "/run.mjs"]');
    expect(runtime.find((i) => i.keyword === "HEALTHCHECK")?.args).toMatch(/CMD \["energy2mqtt", "health"\]/);
    expect(runtime.find((i) => i.keyword === "ENTRYPOINT")?.args).toBe('["/sbin/tini", "--"]');
  });
});

import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { configFile, problemsOf } from "../config/helpers.js";

function load(yaml: string, env: NodeJS.ProcessEnv = {}) {
  return loadConfig(configFile(yaml), env).config;
}

describe("web configuration", () => {
  it("serves on 127.0.0.1:8099 by default, without a token", () => {
    const { web } = loadConfig(undefined, {}).config;
    expect(web).toEqual({ enabled: true, host: "127.0.0.1", port: 8099, ingress: false });
  });

  it("refuses a host other machines reach without a token, saying what to do", () => {
    const problems = problemsOf(() => load("web:\n  host: 0.0.0.0\n"));
    expect(problems.join("\n")).toMatch(/web\.token.*web\.host is 0\.0\.0\.0.*set web\.token/s);
  });

  it("accepts any host with a token of 16 characters or more, and refuses a shorter one", () => {
    expect(load("web:\n  host: 0.0.0.0\n  token: abcdefghijklmnop\n").web.token).toBe("abcdefghijklmnop");
    expect(problemsOf(() => load("web:\n  host: 0.0.0.0\n  token: short\n")).join("\n")).toContain("at least 16");
  });

  it("lets ingress bind elsewhere without a token (the Supervisor authenticates), from the environment too", () => {
    const config = load("{}\n", { ENERGY2MQTT_WEB_HOST: "0.0.0.0", ENERGY2MQTT_WEB_INGRESS: "true" });
    expect(config.web).toMatchObject({ host: "0.0.0.0", ingress: true });
    expect(config.web.token).toBeUndefined();
  });

  it("does not ask for a token when the page is switched off", () => {
    expect(load("web:\n  enabled: false\n  host: 0.0.0.0\n").web.enabled).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { configFile, problemsOf } from "./helpers.js";

describe("configuration: control.write_budget", () => {
  it("defaults to 400 writes per device per day, and takes a file's value or the environment's", () => {
    expect(loadConfig(undefined, {}).config.control.write_budget).toBe(400);
    expect(loadConfig(configFile("control:\n  write_budget: 250\n"), {}).config.control.write_budget).toBe(250);
    expect(loadConfig(undefined, { ENERGY2MQTT_CONTROL_WRITE_BUDGET: "40" }).config.control.write_budget).toBe(40);
  });

  it("refuses a budget of none, a fraction or text, at its line, saying what to use", () => {
    const file = configFile("control:\n  write_budget: 0\n");
    const [zero] = problemsOf(() => loadConfig(file, {}));
    expect(zero).toContain(`${file}:2: control.write_budget:`);
    expect(zero).toContain("must be at least 1 write per device per day");
    const [fraction] = problemsOf(() => loadConfig(configFile("control:\n  write_budget: 2.5\n"), {}));
    expect(fraction).toContain("control.write_budget:");
    const [env] = problemsOf(() => loadConfig(undefined, { ENERGY2MQTT_CONTROL_WRITE_BUDGET: "lots" }));
    expect(env).toContain("environment ENERGY2MQTT_CONTROL_WRITE_BUDGET: control.write_budget:");
  });
});

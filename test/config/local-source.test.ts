import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/index.js";

describe("the local dongles and the source in the configuration", () => {
  it("reads a dongle's host with port 8899 and active polling by default; source stays cloud", () => {
    const config = configSchema.parse({
      local: [{ host: "dongle.lan" }, { host: "10.0.0.9", port: "9000", passive: "true" }],
    });
    expect(config.local).toEqual([
      { host: "dongle.lan", port: 8899, passive: false },
      { host: "10.0.0.9", port: 9000, passive: true },
    ]);
    expect(config.source).toBe("cloud");
    expect(config.poll.local).toBe(10_000);
  });

  it("takes source: local with dongles, and polls them at poll.local", () => {
    const config = configSchema.parse({ source: "local", local: [{ host: "dongle.lan" }], poll: { local: "5s" } });
    expect(config.source).toBe("local");
    expect(config.poll.local).toBe(5_000);
  });

  it("refuses auto for now, saying it is not built yet and what to pick", () => {
    const result = configSchema.safeParse({ source: "auto", local: [{ host: "dongle.lan" }] });
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0];
    expect(issue?.path).toEqual(["source"]);
    expect(issue?.message).toMatch(/must be cloud or local: auto .* not built yet/);
  });

  it("refuses source: local with no dongle listed, and a dongle without a host or with a bad port", () => {
    const none = configSchema.safeParse({ source: "local" });
    expect(none.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["local", expect.stringContaining("no dongle is listed")],
    ]);
    expect(configSchema.safeParse({ local: [{ port: 8899 }] }).error?.issues[0]?.path).toEqual(["local", 0, "host"]);
    expect(configSchema.safeParse({ local: [{ host: "d", port: 70_000 }] }).error?.issues[0]?.path).toEqual([
      "local",
      0,
      "port",
    ]);
    expect(configSchema.safeParse({ local: [{ host: "d", extra: 1 }] }).success).toBe(false);
  });

  it("takes the house's time zone from timezone, Europe/London when left out, and refuses a zone Intl does not know", () => {
    expect(configSchema.parse({}).timezone).toBe("Europe/London");
    expect(configSchema.parse({ timezone: "Pacific/Kiritimati" }).timezone).toBe("Pacific/Kiritimati");
    const bad = configSchema.safeParse({ timezone: "Mars/Olympus" });
    expect(bad.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["timezone", expect.stringContaining("use an IANA name like Europe/London")],
    ]);
  });
});

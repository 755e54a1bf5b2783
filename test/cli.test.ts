import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../src/cli.js";

function captureStd() {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  return { out: () => out, err: () => err };
}

describe("energy2mqtt CLI", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("--help lists every command of the design", async () => {
    const std = captureStd();
    expect(await main(["--help"])).toBe(0);
    for (const command of ["run", "simulate", "check", "rules", "archive", "export", "history", "api"]) {
      expect(std.out()).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
    }
  });

  it("an unknown command exits 2", async () => {
    captureStd();
    expect(await main(["frobnicate"])).toBe(2);
  });

  it("a bad configuration file exits 2 with the problem", async () => {
    const std = captureStd();
    expect(await main(["api", "GET", "/account", "-c", "/nonexistent/config.yaml"])).toBe(2);
    expect(std.err()).toContain("/nonexistent/config.yaml: file not found");
  });
});

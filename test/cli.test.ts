import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../src/cli/main.js";

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

  it("check -c FOLDER exits 2 saying to give the file inside it", async () => {
    const std = captureStd();
    const dir = mkdtempSync(join(tmpdir(), "e2m-cli-dir-"));
    expect(await main(["check", "-c", dir])).toBe(2);
    expect(std.err()).toContain(
      `${dir} is a directory; give the configuration file, e.g. ${join(dir, "configuration.yaml")}`,
    );
    expect(std.err()).not.toContain("EISDIR");
  });

  it("a !secret without a secrets file says where the file was looked for, exit 2", async () => {
    const std = captureStd();
    const dir = mkdtempSync(join(tmpdir(), "e2m-cli-secret-"));
    const file = join(dir, "configuration.yaml");
    writeFileSync(file, "cloud:\n  token: !secret cloud_token\n");
    expect(await main(["check", "-c", file])).toBe(2);
    expect(std.err()).toMatch(
      new RegExp(
        `configuration\\.yaml:2:\\d+: secret "cloud_token": secrets file not found at ${join(dir, "secrets.yaml")}`,
      ),
    );
    expect(std.err()).not.toContain("is not defined");
  });

  it("a bad configuration file exits 2 with the problem", async () => {
    const std = captureStd();
    expect(await main(["api", "GET", "/account", "-c", "/nonexistent/config.yaml"])).toBe(2);
    expect(std.err()).toContain("/nonexistent/config.yaml: file not found");
  });
});

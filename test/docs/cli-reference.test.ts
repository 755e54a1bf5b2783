import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildProgram, EXIT } from "../../src/cli/main.js";
import { CLI_REFERENCE_END, CLI_REFERENCE_START, cliReference, withCliReference } from "../../src/cli/reference.js";

describe("the CLI reference", () => {
  it("is up to date in README.md (run npm run docs:cli after changing a command)", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(withCliReference(readme)).toBe(readme);
  });

  it("has a section for every command, nested ones by their full name", () => {
    const reference = cliReference();
    for (const command of ["run", "simulate", "check", "set", "archive", "export", "history", "api", "health"]) {
      expect(reference).toContain(`\n### energy2mqtt ${command}\n`);
    }
    expect(reference).toContain("\n### energy2mqtt rules plan\n");
    expect(reference).toContain("\n### energy2mqtt local scan\n");
    expect(reference).not.toContain("\n### energy2mqtt rules\n");
  });

  it("lists arguments, options with their defaults, the help text after, and every exit code", () => {
    const reference = cliReference();
    expect(reference).toContain("energy2mqtt set [options] <device> <target> [args...]");
    expect(reference).toContain("| `args...` | no | VALUE; or IDENTIFIER JSON for a preset;");
    expect(reference).toContain("| `--port <port>` | `8787` | port to listen on; 0 picks a free one |");
    expect(reference).toContain("| `--scenario <name\\|file>` | `demo` |");
    expect(reference).toContain("kinds: inverter.point, flow.half_hour");
    for (const code of Object.values(EXIT)) expect(reference).toMatch(new RegExp(`^\\| ${code} \\| \\S`, "m"));
  });

  it("follows the program: a new option shows up", () => {
    const program = buildProgram(() => {}, "0.0.0");
    program.commands.find((command) => command.name() === "check")?.option("--fast", "skip the broker", "no");
    expect(cliReference(program)).toContain("| `--fast` | `no` | skip the broker |");
  });

  it("replaces only what is between the markers, and refuses a README without them", () => {
    const readme = `intro\n${CLI_REFERENCE_START}\nold\n${CLI_REFERENCE_END}\noutro\n`;
    expect(withCliReference(readme, "new")).toBe(`intro\n${CLI_REFERENCE_START}\nnew\n${CLI_REFERENCE_END}\noutro\n`);
    expect(() => withCliReference("no markers", "new")).toThrow(/needs <!-- cli-reference:start -->/);
  });
});

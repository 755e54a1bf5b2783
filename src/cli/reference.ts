import { EventEmitter } from "node:events";
import type { Command } from "commander";
import { withMarkedBlock } from "../config/index.js";
import { buildProgram, EXIT } from "./main.js";

/** What each exit code means; typed by EXIT so that a new code cannot go undocumented. */
const EXIT_MEANING: Record<keyof typeof EXIT, string> = {
  ok: "success (also `--help` and `--version`)",
  failure:
    "runtime failure: the cloud, the broker or the store failed, a change did not happen, (`health`) the daemon is not healthy, or (`local scan`) no dongle answered",
  usage:
    "bad usage or configuration: an unknown command or option, a bad argument or configuration file, a token the cloud rejects, or (`set`) a value the device's rules refuse",
};

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (text: string): string => `\`${text}\``;

/** Text added with addHelpText("after"): commander keeps it only as an afterHelp listener of the command. */
function helpAfter(command: Command): string {
  let text = "";
  // Command is an EventEmitter at run time, though its typings do not say so.
  if (command instanceof EventEmitter) {
    command.emit("afterHelp", { error: false, command, write: (chunk: string) => (text += chunk) });
  }
  return text.trim();
}

function commandPath(command: Command): string {
  return command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name();
}

function commandSection(command: Command): string[] {
  const help = command.createHelp();
  const lines = [`### ${commandPath(command)}`, ""];
  lines.push("```", help.commandUsage(command), "```", "", command.description(), "");
  const args = help.visibleArguments(command);
  if (args.length > 0) {
    lines.push("| argument | required | description |", "|---|---|---|");
    for (const arg of args) {
      const required = arg.required ? "yes" : "no";
      lines.push(
        `| ${code(arg.variadic ? `${arg.name()}...` : arg.name())} | ${required} | ${cell(arg.description)} |`,
      );
    }
    lines.push("");
  }
  // --help is on every command; the reference names it once, on the program.
  const options = help.visibleOptions(command).filter((option) => !command.parent || option.long !== "--help");
  if (options.length > 0) {
    lines.push("| option | default | description |", "|---|---|---|");
    for (const option of options) {
      const fallback = option.defaultValue === undefined ? "" : code(String(option.defaultValue));
      lines.push(`| ${cell(code(option.flags))} | ${fallback} | ${cell(option.description)} |`);
    }
    lines.push("");
  }
  const after = helpAfter(command);
  if (after !== "") lines.push("```", after, "```", "");
  return lines;
}

/** Commands in the program's order, a command's subcommands right after it; groups without an action skipped. */
function leafCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => (sub.commands.length > 0 ? leafCommands(sub) : [sub]));
}

/** The CLI reference as markdown: every command's usage, arguments and options, then the exit codes. */
export function cliReference(program: Command = buildProgram(() => {}, "0.0.0")): string {
  const lines = [
    ...commandSection(program),
    ...leafCommands(program).flatMap(commandSection),
    "### Exit codes",
    "",
    "| code | meaning |",
    "|---|---|",
    ...Object.entries(EXIT).map(([name, value]) => `| ${value} | ${EXIT_MEANING[name as keyof typeof EXIT]} |`),
  ];
  return lines.join("\n");
}

export const CLI_REFERENCE_START = "<!-- cli-reference:start -->";
export const CLI_REFERENCE_END = "<!-- cli-reference:end -->";

/** The README with the generated reference between its markers; throws when the markers are missing. */
export function withCliReference(readme: string, reference: string = cliReference()): string {
  return withMarkedBlock(readme, CLI_REFERENCE_START, CLI_REFERENCE_END, reference);
}

import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { BUILTIN_SCENARIOS, fleetScenario } from "./builtin.js";
import { type Scenario, scenarioSchema } from "./schema.js";

export class ScenarioError extends Error {
  override readonly name = "ScenarioError";
}

/** The built-in names `loadScenario` takes besides `fleet:N` and a file. */
export const BUILTIN_SCENARIO_NAMES: readonly string[] = Object.keys(BUILTIN_SCENARIOS);

/** A built-in (demo, hybrid, aio, gateway, ...), `fleet:N`, or a YAML file in the scenario format (see docs/simulator.md). */
export function loadScenario(nameOrFile: string): Scenario {
  const fleet = /^fleet:(\d+)$/.exec(nameOrFile);
  const builtin = Object.hasOwn(BUILTIN_SCENARIOS, nameOrFile) ? BUILTIN_SCENARIOS[nameOrFile] : undefined;
  const input = builtin ? builtin() : fleet ? fleetScenario(Number(fleet[1])) : readScenarioFile(nameOrFile);
  const result = scenarioSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(top level)"}: ${issue.message}`);
    throw new ScenarioError(`scenario "${nameOrFile}" is not valid:\n  ${problems.join("\n  ")}`);
  }
  checkReferences(result.data, nameOrFile);
  return result.data;
}

function readScenarioFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new ScenarioError(
      `scenario "${file}" is neither a built-in (${BUILTIN_SCENARIO_NAMES.join(", ")}, fleet:N) nor a readable file`,
    );
  }
  try {
    return parse(text);
  } catch (error) {
    throw new ScenarioError(`scenario file ${file} is not valid YAML: ${(error as Error).message}`);
  }
}

function checkReferences(scenario: Scenario, nameOrFile: string): void {
  const usernames = new Set(scenario.accounts.map((a) => a.username));
  const problems: string[] = [];
  for (const actor of scenario.actors) {
    if (!usernames.has(actor.account)) problems.push(`actor "${actor.name}" names unknown account "${actor.account}"`);
  }
  for (const account of scenario.accounts) {
    for (const child of account.children) {
      if (!usernames.has(child)) problems.push(`account "${account.username}" names unknown child "${child}"`);
    }
  }
  const serials = scenario.accounts.flatMap((a) => [
    ...a.devices.flatMap((d) => [d.serial, d.inverter.serial]),
    ...a.ems.flatMap((e) => [e.serial, ...e.inverters.map((i) => i.serial)]),
    ...a.gateways.flatMap((g) => [
      g.serial,
      g.dongle.serial,
      ...g.devices.flatMap((d) => [d.serial, d.inverter.serial]),
    ]),
  ]);
  const seen = new Set<string>();
  for (const serial of serials) {
    if (seen.has(serial)) problems.push(`serial "${serial}" is used twice`);
    seen.add(serial);
  }
  if (problems.length > 0)
    throw new ScenarioError(`scenario "${nameOrFile}" is not valid:\n  ${problems.join("\n  ")}`);
}

import { createHash } from "node:crypto";
import { type AccountType, ALL_SCOPES, READ_SCOPES, type Scenario, type ScenarioAccount } from "../scenario/schema.js";

export interface AccountRecord {
  readonly id: number;
  readonly username: string;
  readonly type: AccountType;
  readonly role: string;
  subscription: boolean;
  readonly firstName: string;
  readonly surname: string;
  readonly children: readonly string[];
  /** The scenario's entry for the account. */
  readonly entry: ScenarioAccount;
}

export interface Actor {
  readonly name: string;
  readonly type: "user" | "service";
  readonly token: string;
  readonly account: AccountRecord;
  readonly scopes: ReadonlySet<string>;
}

const TYPE_RANK: Readonly<Record<AccountType, number>> = { "end-user": 0, engineer: 1, company: 2, admin: 3 };

export function accountTypeAtLeast(type: AccountType, required: "engineer+" | "company+"): boolean {
  return TYPE_RANK[type] >= TYPE_RANK[required === "engineer+" ? "engineer" : "company"];
}

export function buildAccounts(scenario: Scenario): Map<string, AccountRecord> {
  const accounts = new Map<string, AccountRecord>();
  for (const entry of scenario.accounts) {
    accounts.set(entry.username, {
      id: entry.id,
      username: entry.username,
      type: entry.type,
      role: entry.role,
      subscription: entry.subscription,
      firstName: entry.first_name,
      surname: entry.surname,
      children: entry.children,
      entry,
    });
  }
  return accounts;
}

/** Tokens are derived from the seed so that a run with the same seed prints the same ones. */
export function buildActors(
  scenario: Scenario,
  accounts: Map<string, AccountRecord>,
  seed: number,
): Map<string, Actor> {
  const actors = new Map<string, Actor>();
  for (const entry of scenario.actors) {
    const account = accounts.get(entry.account);
    if (!account) throw new Error(`actor ${entry.name}: unknown account ${entry.account}`);
    const token =
      entry.token ??
      `sim_${entry.name}_${createHash("sha256").update(`${seed}:${scenario.name}:${entry.name}`).digest("hex").slice(0, 24)}`;
    const scopes =
      entry.scopes === "all" ? ALL_SCOPES : entry.scopes === "read" ? READ_SCOPES : (entry.scopes as readonly string[]);
    actors.set(token, { name: entry.name, type: entry.type, token, account, scopes: new Set(scopes) });
  }
  return actors;
}

/** The account itself and, for engineers and companies, every account below it. */
export function reachableAccounts(account: AccountRecord, accounts: ReadonlyMap<string, AccountRecord>): Set<string> {
  const reached = new Set<string>([account.username]);
  const queue = [...account.children];
  while (queue.length > 0) {
    const name = queue.shift();
    if (name === undefined || reached.has(name)) continue;
    reached.add(name);
    queue.push(...(accounts.get(name)?.children ?? []));
  }
  return reached;
}

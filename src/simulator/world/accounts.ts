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
  readonly source: ScenarioAccount;
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
  for (const source of scenario.accounts) {
    accounts.set(source.username, {
      id: source.id,
      username: source.username,
      type: source.type,
      role: source.role,
      subscription: source.subscription,
      firstName: source.first_name,
      surname: source.surname,
      children: source.children,
      source,
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
  for (const source of scenario.actors) {
    const account = accounts.get(source.account);
    if (!account) throw new Error(`actor ${source.name}: unknown account ${source.account}`);
    const token =
      source.token ??
      `sim_${source.name}_${createHash("sha256").update(`${seed}:${scenario.name}:${source.name}`).digest("hex").slice(0, 24)}`;
    const scopes =
      source.scopes === "all"
        ? ALL_SCOPES
        : source.scopes === "read"
          ? READ_SCOPES
          : (source.scopes as readonly string[]);
    actors.set(token, { name: source.name, type: source.type, token, account, scopes: new Set(scopes) });
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

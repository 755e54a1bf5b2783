import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import type { PageIterator } from "../pagination.js";
import { type Account, account } from "../schemas/account.js";
import { data } from "../schemas/common.js";
import { type CommunicationDevice, communicationDevice } from "../schemas/communication-device.js";
import type { PageOptions } from "./page-options.js";

export const accountEndpoints = {
  get: defineEndpoint({ name: "Get Account", method: "GET", path: "/account", scopes: ["api:account:read"] }),
  getById: defineEndpoint({
    name: "Get Account By ID",
    method: "GET",
    path: "/account/{user_id}",
    scopes: ["api:account:read"],
    accountType: "engineer+",
  }),
  devices: defineEndpoint({
    name: "Get Account Devices",
    method: "GET",
    path: "/account/{user_username}/devices",
    scopes: ["api:inverter:list", "api:account:read"],
    accountType: "engineer+",
  }),
  search: defineEndpoint({
    name: "Search Account",
    method: "GET",
    path: "/account/search/{user_username}",
    scopes: ["api:account:read"],
    accountType: "engineer+",
  }),
  children: defineEndpoint({
    name: "Get Account Children",
    method: "GET",
    path: "/account-children",
    scopes: ["api:account:list"],
    accountType: "engineer+",
  }),
  childrenOf: defineEndpoint({
    name: "Get Account Children Of Account",
    method: "GET",
    path: "/account-children/{user_id}",
    scopes: ["api:account:read", "api:account:list"],
    accountType: "company+",
  }),
  ssoAccounts: defineEndpoint({
    name: "Get SSO Accounts",
    method: "GET",
    path: "/sso/me/accounts",
    scopes: ["api:account:list", "api:sso:list"],
  }),
} as const;

export class AccountApi {
  constructor(private readonly http: CloudHttp) {}

  /** The account the token belongs to; the daemon's token check at start-up. */
  get(options?: CallOptions): Promise<Account> {
    return this.http.call(accountEndpoints.get, {}, data(account), options);
  }

  getById(userId: string | number, options?: CallOptions): Promise<Account> {
    return this.http.call(accountEndpoints.getById, { params: { user_id: userId } }, data(account), options);
  }

  devices(username: string, options?: PageOptions): PageIterator<CommunicationDevice> {
    return this.http.paginate(
      accountEndpoints.devices,
      { params: { user_username: username } },
      communicationDevice,
      options,
    );
  }

  search(username: string, options?: CallOptions): Promise<Account> {
    return this.http.call(accountEndpoints.search, { params: { user_username: username } }, data(account), options);
  }

  children(options?: PageOptions): PageIterator<Account> {
    return this.http.paginate(accountEndpoints.children, {}, account, options);
  }

  childrenOf(userId: string | number, options?: PageOptions): PageIterator<Account> {
    return this.http.paginate(accountEndpoints.childrenOf, { params: { user_id: userId } }, account, options);
  }

  /** Not paginated: every account linked to the caller's SSO identity. */
  ssoAccounts(options?: CallOptions): Promise<Account[]> {
    return this.http.call(accountEndpoints.ssoAccounts, {}, data(z.array(account)), options);
  }
}

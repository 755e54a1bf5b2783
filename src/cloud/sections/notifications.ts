import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const notificationEndpoints = {} as const;

export class NotificationsApi {
  constructor(readonly http: CloudHttp) {}
}

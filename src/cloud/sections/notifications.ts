import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import { dataOrTopLevel } from "../schemas/common.js";
import {
  type NotificationRequest,
  type NotificationResult,
  notificationRequest,
  notificationResult,
} from "../schemas/notification.js";

export const notificationEndpoints = {
  send: defineEndpoint({
    name: "Send Notification",
    method: "POST",
    path: "/notification/send",
    scopes: ["api:notification:send"],
    customLimit: { requests: 10, minutes: 60 },
  }),
} as const;

export class NotificationsApi {
  constructor(private readonly http: CloudHttp) {}

  /**
   * Sends a notification to the account's user. Checked locally first, so a notification the
   * service would refuse costs none of its 10-per-hour budget (which is its own, apart from the
   * global one). `success: false` means delivery failed on at least one platform.
   */
  async send(notification: NotificationRequest, options?: CallOptions): Promise<NotificationResult> {
    const body = this.http.validate(notificationEndpoints.send, notificationRequest, notification);
    return this.http.call(notificationEndpoints.send, { body }, dataOrTopLevel(notificationResult), options);
  }
}

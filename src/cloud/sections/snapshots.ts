import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import { data } from "../schemas/common.js";
import { profileName, type SnapshotResult, snapshotExists, snapshotResult } from "../schemas/inverter-control.js";

const PATH = "/inverter/{inverter_serial_number}/snapshot/{name}";

export const snapshotEndpoints = {
  exists: defineEndpoint({
    name: "Check Snapshot Exists",
    method: "GET",
    path: PATH,
    scopes: ["api:inverter:control", "api:snapshot:read"],
  }),
  take: defineEndpoint({
    name: "Take Snapshot",
    method: "POST",
    path: PATH,
    scopes: ["api:inverter:control", "api:snapshot:write"],
  }),
  restore: defineEndpoint({
    name: "Restore Snapshot",
    method: "POST",
    path: `${PATH}/restore`,
    scopes: ["api:inverter:control", "api:snapshot:write"],
  }),
  delete: defineEndpoint({
    name: "Delete Snapshot",
    method: "DELETE",
    path: PATH,
    scopes: ["api:inverter:control", "api:snapshot:delete"],
  }),
} as const;

export interface SnapshotOptions extends CallOptions {
  /**
   * True (the default): processed at once, and `success` says whether it worked. False: queued,
   * answered sooner, with no feedback on success.
   */
  readonly sync?: boolean;
  /** The client's context when left out. */
  readonly context?: string;
}

export class SnapshotsApi {
  constructor(private readonly http: CloudHttp) {}

  async exists(serial: string, name: string, options?: CallOptions): Promise<boolean> {
    const endpoint = snapshotEndpoints.exists;
    const params = { inverter_serial_number: serial, name: this.http.validate(endpoint, profileName, name) };
    return this.http.call(endpoint, { params }, data(snapshotExists.transform((answer) => answer.exists)), options);
  }

  /** Saves the inverter's settings under `name`; a name already taken is a ValidationError (errors.snapshot). */
  async take(serial: string, name: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
    return this.command(snapshotEndpoints.take, serial, name, options);
  }

  /**
   * Writes the snapshot's settings back and deletes it when that succeeds; NotFoundError when
   * absent. With sync, `success` is false if any setting could not be changed.
   */
  async restore(serial: string, name: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
    return this.command(snapshotEndpoints.restore, serial, name, options);
  }

  /** Deletes without restoring; NotFoundError when absent. */
  async delete(serial: string, name: string, options?: CallOptions): Promise<SnapshotResult> {
    const endpoint = snapshotEndpoints.delete;
    const params = { inverter_serial_number: serial, name: this.http.validate(endpoint, profileName, name) };
    return this.http.call(endpoint, { params }, data(snapshotResult), options);
  }

  private async command(
    endpoint: (typeof snapshotEndpoints)["take" | "restore"],
    serial: string,
    name: string,
    options: SnapshotOptions,
  ): Promise<SnapshotResult> {
    const checked = this.http.validate(
      endpoint,
      z.object({ name: profileName, sync: z.boolean(), context: z.string() }),
      { name, sync: options.sync ?? true, context: options.context ?? this.http.context },
    );
    return this.http.call(
      endpoint,
      {
        params: { inverter_serial_number: serial, name: checked.name },
        body: { sync: checked.sync, context: checked.context },
      },
      data(snapshotResult),
      options,
    );
  }
}

import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import { CloudError, InvalidRequestError } from "../errors.js";
import type { CallOptions, CloudHttp } from "../http.js";
import type { PageIterator } from "../pagination.js";
import { type EvCommandResult, evCommandResult } from "../results.js";
import { data, dataOrTopLevel, numeric, opt, timestamp } from "../schemas/common.js";
import {
  type ChargerMeterRecord,
  type ChargingSession,
  chargerMeterRecord,
  chargingSession,
  type EvCharger,
  evCharger,
  type Measurand,
} from "../schemas/ev-charger.js";
import {
  EV_COMMANDS,
  type EvCommandData,
  type EvCommandId,
  type EvCommandRequest,
  isEvCommandId,
} from "../schemas/ev-commands.js";
import type { PageOptions } from "./page-options.js";

export const evChargerEndpoints = {
  /** The reference shows no scope or account type for the two listing endpoints. */
  list: defineEndpoint({ name: "Get EV Chargers", method: "GET", path: "/ev-charger", scopes: [] }),
  get: defineEndpoint({ name: "Get EV Charger", method: "GET", path: "/ev-charger/{charger_uuid}", scopes: [] }),
  meterData: defineEndpoint({
    name: "Get Charger Meter Data",
    method: "GET",
    path: "/ev-charger/{charger_uuid}/meter-data",
    scopes: ["api:ev-charger:data"],
  }),
  commands: defineEndpoint({
    name: "Get Supported Commands",
    method: "GET",
    path: "/ev-charger/{charger_uuid}/commands",
    scopes: ["api:ev-charger:control"],
  }),
  commandData: defineEndpoint({
    name: "Get Command Data",
    method: "GET",
    path: "/ev-charger/{charger_uuid}/commands/{command_id}",
    scopes: ["api:ev-charger:control"],
  }),
  /** A write relayed to the charger: never retried blindly. */
  sendCommand: defineEndpoint({
    name: "Send Command",
    method: "POST",
    path: "/ev-charger/{charger_uuid}/commands/{command_id}",
    scopes: ["api:ev-charger:control"],
  }),
  chargingSessions: defineEndpoint({
    name: "Get Charging Sessions",
    method: "GET",
    path: "/ev-charger/{charger_uuid}/charging-sessions",
    scopes: ["api:ev-charger:data"],
  }),
} as const;

/** Meter-data query: all four are required by the reference. */
export interface MeterDataQuery {
  /** A date or datetime, before now. */
  readonly start_time: string;
  /** A date or datetime, after start_time. */
  readonly end_time: string;
  /** One or more measurands (see MEASURANDS). */
  readonly measurands: readonly Measurand[];
  /** IDs of the measuring devices, e.g. [0]. */
  readonly meter_ids: readonly number[];
}

export interface ChargingSessionsQuery {
  /** A date or datetime; at most end_time. */
  readonly start_time?: string;
  readonly end_time?: string;
}

const meterDataQuery = z.strictObject({
  start_time: timestamp,
  end_time: timestamp,
  measurands: z.array(z.number().int().min(0).max(21)).min(1),
  meter_ids: z.array(z.number().int().min(0)).min(1),
});

const chargingSessionsQuery = z.strictObject({
  start_time: timestamp.optional(),
  end_time: timestamp.optional(),
});

const commandError = z.object({
  code: opt(z.string()),
  type: opt(z.string()),
  message: opt(z.string()),
});

const commandResultBody = z.object({
  code: opt(numeric),
  success: opt(z.boolean()),
  message: opt(z.string()),
  error: opt(commandError),
  data: z.unknown().optional(),
});

/** `{data: {code, success, message, error?, data?}}`, or the same at the top level. */
const commandResponse = dataOrTopLevel(commandResultBody);

/** Statuses whose body is still read as a command result when it holds a documented failure code. */
function resultFromErrorBody(error: unknown): EvCommandResult | undefined {
  if (!(error instanceof CloudError) || error.status === undefined) return undefined;
  if ([401, 402, 403, 404, 422, 429].includes(error.status)) return undefined;
  const parsed = commandResponse.safeParse(error.body);
  if (!parsed.success) return undefined;
  const code = parsed.data.code;
  if (typeof code !== "number" || !Number.isInteger(code) || code < -5 || code > -1) return undefined;
  return evCommandResult(parsed.data);
}

export class EvChargersApi {
  constructor(private readonly http: CloudHttp) {}

  list(options?: PageOptions): PageIterator<EvCharger> {
    return this.http.paginate(evChargerEndpoints.list, {}, evCharger, options);
  }

  get(chargerUuid: string, options?: CallOptions): Promise<EvCharger> {
    return this.http.call(evChargerEndpoints.get, { params: { charger_uuid: chargerUuid } }, data(evCharger), options);
  }

  /** Meter records; the query is checked before sending (times, one or more measurands and meter IDs). */
  meterData(chargerUuid: string, query: MeterDataQuery, options?: PageOptions): PageIterator<ChargerMeterRecord> {
    const checked = this.http.validate(evChargerEndpoints.meterData, meterDataQuery, query);
    return this.http.paginate(
      evChargerEndpoints.meterData,
      { params: { charger_uuid: chargerUuid }, query: checked },
      chargerMeterRecord,
      options,
    );
  }

  /** The command IDs this charger supports; may include IDs this client does not know. */
  commands(chargerUuid: string, options?: CallOptions): Promise<string[]> {
    return this.http.call(
      evChargerEndpoints.commands,
      { params: { charger_uuid: chargerUuid } },
      data(z.array(z.string())),
      options,
    );
  }

  /** The supported commands this client knows, in the charger's order. */
  async knownCommands(chargerUuid: string, options?: CallOptions): Promise<EvCommandId[]> {
    return (await this.commands(chargerUuid, options)).filter(isEvCommandId);
  }

  /** The command's current data, parsed with that command's schema. */
  commandData<C extends EvCommandId>(
    chargerUuid: string,
    command: C,
    options?: CallOptions,
  ): Promise<EvCommandData<C>> {
    const endpoint = evChargerEndpoints.commandData;
    const spec = commandSpec(endpoint, command);
    return this.http.call(
      endpoint,
      { params: { charger_uuid: chargerUuid, command_id: command } },
      data(spec.data),
      options,
    ) as Promise<EvCommandData<C>>;
  }

  /**
   * Sends a command. The request is checked against the reference's bounds first, so a bad
   * value throws InvalidRequestError and nothing is sent. The charger's answer, failure codes
   * -1 to -5 included, comes back as an EvCommandResult; read back before sending again
   * when `mayHaveApplied` is true.
   */
  async sendCommand<C extends EvCommandId>(
    chargerUuid: string,
    command: C,
    request: EvCommandRequest<C>,
    options?: CallOptions,
  ): Promise<EvCommandResult> {
    const endpoint = evChargerEndpoints.sendCommand;
    const spec = commandSpec(endpoint, command);
    const body: unknown = this.http.validate(endpoint, spec.request, request);
    try {
      const answer = await this.http.call(
        endpoint,
        { params: { charger_uuid: chargerUuid, command_id: command }, body },
        commandResponse,
        options,
      );
      return evCommandResult(answer);
    } catch (error) {
      const result = resultFromErrorBody(error);
      if (result) return result;
      throw error;
    }
  }

  chargingSessions(
    chargerUuid: string,
    query: ChargingSessionsQuery = {},
    options?: PageOptions,
  ): PageIterator<ChargingSession> {
    const checked = this.http.validate(evChargerEndpoints.chargingSessions, chargingSessionsQuery, query);
    return this.http.paginate(
      evChargerEndpoints.chargingSessions,
      { params: { charger_uuid: chargerUuid }, query: checked },
      chargingSession,
      options,
    );
  }

  // ---- typed shortcuts for the commands used most ----

  startCharge(chargerUuid: string, options?: CallOptions): Promise<EvCommandResult> {
    return this.sendCommand(chargerUuid, "start-charge", {}, options);
  }

  stopCharge(chargerUuid: string, options?: CallOptions): Promise<EvCommandResult> {
    return this.sendCommand(chargerUuid, "stop-charge", {}, options);
  }

  /** Amps, 6 to 32. */
  setChargePowerLimit(chargerUuid: string, limit: number, options?: CallOptions): Promise<EvCommandResult> {
    return this.sendCommand(chargerUuid, "adjust-charge-power-limit", { limit }, options);
  }

  /** kWh, 0.1 to 250; undefined sends no limit. */
  setSessionEnergyLimit(
    chargerUuid: string,
    limit: number | undefined,
    options?: CallOptions,
  ): Promise<EvCommandResult> {
    return this.sendCommand(chargerUuid, "set-session-energy-limit", limit === undefined ? {} : { limit }, options);
  }

  setPlugAndGo(chargerUuid: string, enabled: boolean, options?: CallOptions): Promise<EvCommandResult> {
    return this.sendCommand(chargerUuid, "set-plug-and-go", { enabled }, options);
  }

  /** One of the charger's `available` modes (change-mode command data). */
  changeMode(chargerUuid: string, mode: string, options?: CallOptions): Promise<EvCommandResult> {
    return this.sendCommand(chargerUuid, "change-mode", { mode }, options);
  }
}

/** The command's schemas; an ID from untyped input that is not one of the known commands is refused before sending. */
function commandSpec(
  endpoint: (typeof evChargerEndpoints)[keyof typeof evChargerEndpoints],
  command: string,
): (typeof EV_COMMANDS)[EvCommandId] {
  if (!isEvCommandId(command)) {
    throw new InvalidRequestError(endpoint, { command_id: [`unknown EV charger command "${command}"`] });
  }
  return EV_COMMANDS[command];
}

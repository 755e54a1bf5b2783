import { defineEndpoint } from "../endpoint.js";
import { ResponseShapeError } from "../errors.js";
import type { CallOptions, CloudHttp } from "../http.js";
import type { PageIterator } from "../pagination.js";
import { data, oneOrMany } from "../schemas/common.js";
import {
  type CreateSmartDeviceRequest,
  createSmartDeviceRequest,
  type SmartDevice,
  type SmartDeviceDataPoint,
  type SmartDeviceDataRequest,
  smartDevice,
  smartDeviceDataPoint,
  smartDeviceDataRequest,
} from "../schemas/smart-device.js";
import type { PageOptions } from "./page-options.js";

export const smartDeviceEndpoints = {
  list: defineEndpoint({
    name: "Get Smart Devices",
    method: "GET",
    path: "/smart-device",
    scopes: ["api:smart-device:list"],
  }),
  create: defineEndpoint({
    name: "Create Smart Device",
    method: "POST",
    path: "/smart-device",
    scopes: ["api:smart-device:create"],
  }),
  get: defineEndpoint({
    name: "Get Smart Device",
    method: "GET",
    path: "/smart-device/{smartDevice_uuid}",
    scopes: ["api:smart-device:read"],
  }),
  data: defineEndpoint({
    name: "Get Smart Device Data",
    method: "GET",
    path: "/smart-device/{smartDevice_uuid}/data",
    scopes: ["api:smart-device:data"],
  }),
  addData: defineEndpoint({
    name: "Add Smart Device Data",
    method: "POST",
    path: "/smart-device/{smartDevice_uuid}/data",
    scopes: ["api:smart-device:data"],
  }),
} as const;

/** The service answers one device or several where one is expected; both read as a list. */
const devicesAnswer = data(oneOrMany(smartDevice));
const pointsAnswer = data(oneOrMany(smartDeviceDataPoint));

export class SmartDevicesApi {
  constructor(private readonly http: CloudHttp) {}

  list(options?: PageOptions): PageIterator<SmartDevice> {
    return this.http.paginate(smartDeviceEndpoints.list, {}, smartDevice, options);
  }

  /** Registers a smart device; the service answers with one device or several, read as an array. */
  async create(request: CreateSmartDeviceRequest, options?: CallOptions): Promise<SmartDevice[]> {
    const body = this.http.validate(smartDeviceEndpoints.create, createSmartDeviceRequest, request);
    return this.http.call(smartDeviceEndpoints.create, { body }, devicesAnswer, options);
  }

  /**
   * One device. The documentation's example answers a list here: the device with this uuid is
   * taken from it (or its only entry); a list without it fails at `data`, rather than handing
   * back another device.
   */
  async get(uuid: string, options?: CallOptions): Promise<SmartDevice> {
    const endpoint = smartDeviceEndpoints.get;
    const devices = await this.http.call(endpoint, { params: { smartDevice_uuid: uuid } }, devicesAnswer, options);
    const wanted = uuid.toLowerCase();
    const found =
      devices.find((device) => device.uuid.toLowerCase() === wanted) ?? (devices.length === 1 ? devices[0] : undefined);
    if (found) return found;
    throw new ResponseShapeError(
      endpoint,
      "data",
      `expected the smart device ${uuid}, but the answer lists ${devices.length === 0 ? "no device" : `only ${devices.map((device) => device.uuid).join(", ")}`}`,
      200,
      devices,
    );
  }

  data(uuid: string, options?: PageOptions): PageIterator<SmartDeviceDataPoint> {
    return this.http.paginate(
      smartDeviceEndpoints.data,
      { params: { smartDevice_uuid: uuid } },
      smartDeviceDataPoint,
      options,
    );
  }

  /** Records a power reading; a Date time is sent as `YYYY-MM-DDThh:mm:ssZ`. */
  async addData(uuid: string, point: SmartDeviceDataRequest, options?: CallOptions): Promise<SmartDeviceDataPoint[]> {
    const body = this.http.validate(smartDeviceEndpoints.addData, smartDeviceDataRequest, point);
    return this.http.call(
      smartDeviceEndpoints.addData,
      { params: { smartDevice_uuid: uuid }, body },
      pointsAnswer,
      options,
    );
  }
}

declare const deviceIdBrand: unique symbol;

/**
 * A device as MQTT topics, Home Assistant unique_ids and availability name it: its serial or
 * uuid, lower-cased (the service matches serials without regard to case, so one device has one
 * id however a response spells it). Only `deviceIdOf` makes one.
 */
export type DeviceId = string & { readonly [deviceIdBrand]: true };

/** The id of the device with this serial or uuid. */
export function deviceIdOf(serialOrUuid: string): DeviceId {
  return serialOrUuid.toLowerCase() as DeviceId;
}

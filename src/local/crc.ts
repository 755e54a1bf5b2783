/** CRC-16/Modbus (poly 0xA001 reflected, init 0xFFFF) of `bytes[start, end)`. */
export function crc16Modbus(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let index = start; index < end; index++) {
    crc ^= bytes[index] ?? 0;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

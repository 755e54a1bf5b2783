/**
 * A map whose keys (serials, UUIDs) match without regard to case, as the real service matches
 * them: public clients send serials lower-cased and get the device. Values keep the spelling
 * they were stored with; only the lookup is folded.
 */
export class SerialMap<V> extends Map<string, V> {
  override get(key: string): V | undefined {
    return super.get(fold(key));
  }

  override set(key: string, value: V): this {
    return super.set(fold(key), value);
  }

  override has(key: string): boolean {
    return super.has(fold(key));
  }

  override delete(key: string): boolean {
    return super.delete(fold(key));
  }
}

export const fold = (key: string): string => key.toUpperCase();

/** Two serials (or UUIDs) are the same device when they differ only in case. */
export const sameSerial = (a: string, b: string): boolean => fold(a) === fold(b);

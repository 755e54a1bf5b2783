/**
 * A part of the daemon that plugs into the bus (Zigbee2MQTT's Extension): app.ts builds the shared
 * collaborators, then starts the features in order and stops them in reverse. A new consumer of
 * readings, availability or changes is one new feature.
 */
export interface Feature {
  /** Short and stable: the bus names a failing handler by it, and logs use it. */
  readonly name: string;
  start(): Promise<void> | void;
  /** Called the moment a stop begins, before any feature is stopped: abort background work. */
  halt?(): void;
  /** Ends the feature's work and unsubscribes it; called once, in reverse order of start. */
  stop(): Promise<void> | void;
}

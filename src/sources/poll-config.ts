/** Poll intervals in ms; the `poll` section of the configuration. */
export interface PollConfig {
  readonly inverter: number;
  readonly meter: number;
  readonly ems: number;
  readonly ev_charger: number;
  readonly events: number;
  readonly smart_device: number;
}

/** A smart device's (a smart plug's) reading, whichever path read it. */
export interface SmartDeviceReading {
  /** W. */
  readonly power: number;
  /** When the device measured it, epoch ms; undefined when the path's time cannot be read. */
  readonly measuredAt: number | undefined;
}

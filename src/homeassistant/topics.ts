/** Every MQTT topic the bridge uses, in one place. */
export class Topics {
  constructor(
    readonly base: string,
    readonly discoveryPrefix: string,
  ) {}

  get bridgeState(): string {
    return `${this.base}/bridge/state`;
  }

  deviceState(deviceId: string): string {
    return `${this.base}/${deviceId}`;
  }

  availability(deviceId: string): string {
    return `${this.base}/${deviceId}/availability`;
  }

  command(deviceId: string, entityKey: string): string {
    return `${this.base}/${deviceId}/set/${entityKey}`;
  }

  /** Wildcard for every entity command. */
  get commandWildcard(): string {
    return `${this.base}/+/set/+`;
  }

  result(deviceId: string): string {
    return `${this.base}/${deviceId}/result`;
  }

  bridgeRequest(action: string): string {
    return `${this.base}/bridge/request/${action}`;
  }

  get bridgeRequestWildcard(): string {
    return `${this.base}/bridge/request/#`;
  }

  bridgeResponse(action: string): string {
    return `${this.base}/bridge/response/${action}`;
  }

  discovery(component: string, deviceId: string, entityKey: string): string {
    return `${this.discoveryPrefix}/${component}/${deviceId}/${entityKey}/config`;
  }
}

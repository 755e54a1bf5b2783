import { type CloudClientOptions, CloudHttp } from "./http.js";
import { AccountApi } from "./sections/account.js";
import { CommunicationDevicesApi } from "./sections/communication-devices.js";
import { EmsApi } from "./sections/ems.js";
import { EnergyFlowsApi } from "./sections/energy-flows.js";
import { EvChargersApi } from "./sections/ev-chargers.js";
import { InverterControlApi } from "./sections/inverter-control.js";
import { InverterDataApi } from "./sections/inverter-data.js";
import { NotificationsApi } from "./sections/notifications.js";
import { PresetProfilesApi } from "./sections/preset-profiles.js";
import { SitesApi } from "./sections/sites.js";
import { SmartDevicesApi } from "./sections/smart-devices.js";
import { SnapshotsApi } from "./sections/snapshots.js";

/** The typed client for the whole cloud API, one property per section of the reference. */
export class CloudClient {
  readonly http: CloudHttp;
  readonly account: AccountApi;
  readonly communicationDevices: CommunicationDevicesApi;
  readonly ems: EmsApi;
  readonly evChargers: EvChargersApi;
  readonly energyFlows: EnergyFlowsApi;
  readonly inverterData: InverterDataApi;
  readonly inverterControl: InverterControlApi;
  readonly presetProfiles: PresetProfilesApi;
  readonly snapshots: SnapshotsApi;
  readonly notifications: NotificationsApi;
  readonly sites: SitesApi;
  readonly smartDevices: SmartDevicesApi;

  constructor(options: CloudClientOptions) {
    this.http = new CloudHttp(options);
    this.account = new AccountApi(this.http);
    this.communicationDevices = new CommunicationDevicesApi(this.http);
    this.ems = new EmsApi(this.http);
    this.evChargers = new EvChargersApi(this.http);
    this.energyFlows = new EnergyFlowsApi(this.http);
    this.inverterData = new InverterDataApi(this.http);
    this.inverterControl = new InverterControlApi(this.http);
    this.presetProfiles = new PresetProfilesApi(this.http);
    this.snapshots = new SnapshotsApi(this.http);
    this.notifications = new NotificationsApi(this.http);
    this.sites = new SitesApi(this.http);
    this.smartDevices = new SmartDevicesApi(this.http);
  }

  /** Aborts every request under way and refuses new ones: the first step of shutdown. */
  close(): void {
    this.http.close();
  }
}

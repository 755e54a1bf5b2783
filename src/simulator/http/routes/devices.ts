import { sameSerial } from "../../world/serial-map.js";
import { notFound, ok, paginate } from "../envelope.js";
import type { Route } from "../route.js";
import { pageQuery } from "./account.js";
import { devicesOf } from "./device-bodies.js";
import { emsSystemDataBody } from "./ems-system-data.js";

export const deviceRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/communication-device",
    scopes: ["api:inverter:list"],
    handle: (c) => paginate(devicesOf(c.world, [c.actor.account.username], c.now), pageQuery(c), c.url),
  },
  {
    method: "GET",
    path: "/communication-device/{communicationDevice_serial_number}",
    scopes: ["api:inverter:read"],
    handle: (c) => {
      const wanted = c.params.communicationDevice_serial_number ?? "";
      const found = devicesOf(c.world, c.world.visibleAccounts(c.actor), c.now).find((d) =>
        sameSerial(d.serial_number, wanted),
      );
      return found ? ok(found) : notFound("Communication device not found.");
    },
  },
  {
    method: "GET",
    path: "/ems/{inverter_serial_number}/system-data/latest",
    scopes: ["api:inverter:read"],
    handle: (c) => {
      const ems = c.world.ems.get(c.params.inverter_serial_number ?? "");
      if (!ems || !c.world.canSee(c.actor, ems.account)) return notFound("EMS not found.");
      return ok(emsSystemDataBody(ems, c.now));
    },
  },
];

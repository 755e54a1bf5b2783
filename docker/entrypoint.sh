#!/bin/sh
# The image's entrypoint (run under tini): picks /data/configuration.yaml, else the embedded
# demo, and execs the daemon so that it, not this shell, receives SIGTERM.
set -eu

data_dir="${ENERGY2MQTT_DATA_DIR:-/data}"
bin="${ENERGY2MQTT_BIN:-energy2mqtt}"

# Relative paths in the configuration (store.path, rules) resolve inside the data folder.
cd "$data_dir"

# Anything but a bare `run` is a command for the CLI: `docker run IMAGE check`, `... api GET /account`.
if [ "$#" -gt 0 ] && { [ "$1" != "run" ] || [ "$#" -gt 1 ]; }; then
  exec "$bin" "$@"
fi

config="$data_dir/configuration.yaml"
if [ -f "$config" ]; then
  exec "$bin" run -c "$config"
fi

echo "energy2mqtt: no $config; starting the embedded demo (simulated cloud, broker on 127.0.0.1 inside the container)" >&2
# The demo's history must land on the volume, not in the image's working tree.
ENERGY2MQTT_STORE_PATH="${ENERGY2MQTT_STORE_PATH:-$data_dir/energy2mqtt.db}"
export ENERGY2MQTT_STORE_PATH
exec "$bin" run

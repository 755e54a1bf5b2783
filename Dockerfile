# energy2mqtt: the daemon in a container. Configuration, rules and the SQLite store live in /data.
#   docker build -t energy2mqtt .
#   docker run -d --name energy2mqtt -v energy2mqtt:/data energy2mqtt

# Build and runtime both use Alpine (musl): the better-sqlite3 addon compiled here must load there.
FROM node:22-alpine AS build
RUN apk add --no-cache python3 make g++
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are here, and optional native
# dev dependencies need no compiling; better-sqlite3 is then built from source on its own.
RUN npm ci --ignore-scripts \
  && npm rebuild better-sqlite3 --build-from-source
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/build-web.ts ./scripts/
RUN npm run build \
  && npm prune --omit=dev

FROM node:22-alpine
RUN apk add --no-cache tini
# No NODE_OPTIONS for memory: bin/energy2mqtt.js already keeps V8's young generation small for `run`.
ENV NODE_ENV=production \
  ENERGY2MQTT_DATA_DIR=/data \
  ENERGY2MQTT_HEALTH_FILE=/data/health.json
WORKDIR /app
COPY package.json ./
COPY bin ./bin
COPY config/configuration.example.yaml config/secrets.example.yaml config/rules.demo.yaml ./config/
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY docker/entrypoint.sh /usr/local/bin/energy2mqtt-entrypoint
RUN chmod 755 /app/bin/energy2mqtt.js /usr/local/bin/energy2mqtt-entrypoint \
  && ln -s /app/bin/energy2mqtt.js /usr/local/bin/energy2mqtt \
  && mkdir -p /data \
  && chown node:node /data
USER node
WORKDIR /data
VOLUME /data
# Healthy while the daemon rewrites /data/health.json (every 30 s) and MQTT is not down for long.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["energy2mqtt", "health"]
ENTRYPOINT ["/sbin/tini", "--", "/usr/local/bin/energy2mqtt-entrypoint"]
CMD ["run"]

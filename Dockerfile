# syntax=docker/dockerfile:1
# The box office site as a Node container. Two stages: a build with every dependency and the
# tools to compile better-sqlite3, pruned to production dependencies; and a small runtime that
# runs compiled JavaScript as the unprivileged `node` user, with its data in one volume.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source wherever its prebuilt binary cannot be fetched (a mirrored
# or air-gapped registry): the compiler stays in this stage.
# tini comes from here too, static, so the runtime stage needs no package index.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
# Install scripts only where needed: vnu-jar's (a test tool) would fetch a Java runtime. node-gyp
# builds against the base image's own Node headers (/usr/local/include/node in the official
# images) instead of downloading them from nodejs.org; a base without them gets the same version's
# headers from the npm registry, where node-linux-<arch> carries them. --ignore-scripts skips our
# own postinstall too, so the compiler's patch in patches/ (docs/development.md, "Dependencies") is applied
# here by hand, and a patch that no longer applies fails the build.
RUN npm ci --ignore-scripts --no-audit --no-fund --update-notifier=false \
  && node_modules/.bin/patch-package --error-on-fail \
  && nodedir=/usr/local \
  && if [ ! -f "$nodedir/include/node/node.h" ]; then \
       nodedir=/tmp/node-headers && mkdir -p "$nodedir" && cd /tmp \
       && npm pack --silent "node-linux-$(node -p process.arch)@$(node -p process.versions.node)" \
       && tar -xzf node-linux-*.tgz -C "$nodedir" --strip-components=1 package/include \
       && rm node-linux-*.tgz && cd /app; \
     fi \
  && npm rebuild better-sqlite3 --nodedir="$nodedir" \
  && rm -rf /tmp/node-headers
COPY . .
# What the prune leaves that nothing runs: TypeScript (an optional peer of Remix and
# react-i18next, for their types) and better-sqlite3's sources and object files (its addon stays).
# The prune runs no scripts (patch-package, a dev dependency, is gone by then); the patched
# compiler is a dev dependency, used only by the build before it.
RUN npm run build && npm run build:server \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/typescript \
  && cd node_modules/better-sqlite3 && rm -rf deps src build/deps build/Release/obj build/Release/obj.target

FROM ${NODE_IMAGE} AS runtime
# tini as PID 1: signals reach node, and exited children are reaped.
COPY --from=build /usr/bin/tini-static /usr/bin/tini
# Fonts, and fontconfig's configuration, for the posters drawn from SVG at import (the demo's
# typographic posters): sharp's own libvips (@img/sharp-libvips-*, an npm package, installed by
# `npm ci` for this platform with no install script) reads /etc/fonts. Nothing else needs them.
RUN apt-get update \
  && apt-get install -y --no-install-recommends fontconfig-config fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    APP_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY package.json ./
COPY locales ./locales
COPY catalogue ./catalogue
COPY scripts/container/entrypoint.sh /usr/local/bin/box-office
# The embedded database, the shows' pictures (images/) and the email outbox: the one place the
# site writes, owned by `node`.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
# A first start on an empty PostgreSQL (migrations, then the catalogue) has taken 49 s.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SESSION_SECRET must be provided at run time (the server refuses to start in production without it).
ENTRYPOINT ["tini", "--", "box-office"]
CMD ["serve"]

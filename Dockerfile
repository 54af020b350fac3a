# Night Shore, production image (docs/deploy.md). A plain Dockerfile: no BuildKit features.
# Not built on our machines (they have no Docker engine): read it, and fix it on the first
# machine that builds it.

# --- build: install everything (the postinstall applies patches/), build, drop dev packages
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY embedded-mongo/package.json embedded-mongo/package.json
COPY patches patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- runtime: the build (with the server compiled to build/server.js), the sources tsx runs
# (app/, scripts/ for create-admin and backups), production packages; an unprivileged user.
# MALLOC_ARENA_MAX=2: glibc's malloc in two arenas, not one per thread (decision 040).
FROM node:20-slim
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PORT=3000 \
    DATA_DIR=/var/lib/night-shore/data \
    UPLOADS_DIR=/var/lib/night-shore/uploads
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /var/lib/night-shore/data /var/lib/night-shore/uploads \
    && chown -R node:node /var/lib/night-shore
USER node
VOLUME ["/var/lib/night-shore/data", "/var/lib/night-shore/uploads"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "build/server.js", "build/index.js"]

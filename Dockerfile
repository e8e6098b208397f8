# syntax=docker/dockerfile:1
# Lampyr for production: the console built by Vite, the server compiled to JavaScript by esbuild
# (scripts/build-server.mjs) and run by plain Node as an unprivileged user — no tsx, no dev
# dependencies, no sources at run time. See README, "Running in production".

# 1. Build: every dependency, then the console and the compiled server.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/simulator/package.json packages/simulator/
COPY packages/web/package.json packages/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -w @lampyr/web && node scripts/build-server.mjs

# 2. Production dependencies only: the server's and its workspace packages' (not the console's).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/simulator/package.json packages/simulator/
COPY packages/web/package.json packages/web/
RUN npm ci --omit=dev --no-audit --no-fund \
      --workspace=@lampyr/server --workspace=@lampyr/contract --workspace=@lampyr/simulator \
  && npm cache clean --force

# 3. Run time: compiled server, built console, locales, production node_modules.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/var/lib/lampyr
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/contract/locales packages/contract/locales
COPY packages/server/package.json packages/server/
COPY packages/simulator/package.json packages/simulator/
COPY --from=build /app/packages/server/dist packages/server/dist
COPY --from=build /app/packages/web/dist packages/web/dist
RUN mkdir -p /var/lib/lampyr && chown node:node /var/lib/lampyr
USER node
EXPOSE 8080
VOLUME ["/var/lib/lampyr"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "packages/server/dist/main.js"]

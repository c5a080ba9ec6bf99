# Production image: qrelay against MongoDB (MONGODB_URI is required; the dev database
# launcher and its Go toolchain are not part of this image).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# the workspace packages' manifests first, so that npm ci links them (node_modules/@qrelay/*)
COPY packages/marketplace/package.json ./packages/marketplace/
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY packages/marketplace/tsconfig.json ./packages/marketplace/
COPY packages/marketplace/src ./packages/marketplace/src
COPY src ./src
COPY migrations ./migrations
# packages first: qrelay's build reads their declarations from packages/*/dist
RUN npx tsc -p packages/marketplace/tsconfig.json && npx tsc -p tsconfig.build.json && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/packages/marketplace/dist ./packages/marketplace/dist
COPY packages/marketplace/package.json ./packages/marketplace/
COPY packages/marketplace/templates ./packages/marketplace/templates
COPY package.json ./
COPY templates ./templates
COPY hits ./hits
COPY prompts ./prompts
COPY samples ./samples
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/src/cli.js"]
CMD ["serve"]

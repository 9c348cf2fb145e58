# tally in a container: the one compiled binary on a slim Debian. See README.md, "Docker".

# Stage 1: build dist/tally with the Bun the project is on.
FROM oven/bun:1.4.5 AS build
WORKDIR /src
# Dependencies first, so a change to the source alone reuses this layer.
COPY package.json bun.lock ./
# The patched dependencies (patches/README.md) are applied by the install.
COPY patches ./patches
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build

# Stage 2: only the binary. It is glibc-linked and carries its migrations, catalogue, PGlite's wasm
# and a migrated seed, so it needs nothing else; CA roots are for the HTTPS upstreams.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# Never root. A fixed uid, so a host folder mounted on /data can be handed to it (chown 10001).
RUN groupadd --system --gid 10001 tally \
 && useradd --system --uid 10001 --gid tally --home-dir /data --no-create-home --shell /usr/sbin/nologin tally \
 && mkdir /data \
 && chown tally:tally /data
COPY --from=build /src/dist/tally /usr/local/bin/tally
WORKDIR /data
# The embedded database lives in /data unless DATABASE_URL names a Postgres; listen on every address.
ENV DATA_DIR=/data HOST=0.0.0.0 PORT=8080
VOLUME /data
EXPOSE 8080
USER tally
# No curl in the image: bash's /dev/tcp asks GET /v1/health, which answers 200 only while the database does.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT} && printf 'GET /v1/health HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["tally"]
CMD ["serve"]

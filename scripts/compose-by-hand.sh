#!/usr/bin/env bash
# Runs compose.yaml's services by hand, for machines with no `docker compose`: what compose.yaml
# says (read with scripts/container/compose-shape.mjs, its ${…} filled in as compose would), in the
# order its depends_on gives, then a buyer without script through the proxy. Run it after a change
# to compose.yaml, deploy/nginx.conf, the Dockerfile or the server's start-up, once the image is
# built; it is not part of `npm test`. From a checkout after `npm ci`:
#
#   docker build -t box-office . && scripts/compose-by-hand.sh
#
#   db       a throw-away PostgreSQL cluster on this host (pg_createcluster; needs root and the
#            postgresql-common tools) with db's POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB,
#            healthy when db's healthcheck (pg_isready) says so; it stands for the db-data volume
#   migrate  the image once, with migrate's command, environment and read_only, to completion
#   app      deploy.replicas copies of the image, app's environment, read_only and its volume
#            (app-data, made for the run), each on its own port: the containers use the host's
#            network, where "db:5432" in DATABASE_URL becomes the cluster's address
#   proxy    nginx on this host (`nginx` on the PATH) with deploy/nginx.conf, adapted: no resolver
#            (no Docker DNS here), "server app:3000 resolve" becomes one server line per replica
#            (nginx before 1.27.3 lacks `resolve`), and it listens on the proxy's port; the rest of
#            the file (headers, timeouts, body size) is used as it is
#   buyer    scripts/container/smoke-buyer.ts through the proxy: two seats held, paid with 3-D
#            Secure; then the database holds one paid order and both replicas served the buyer
#
# It prints a line per check, TAP-style ("ok N - …", or "not ok N - …" with the failing command's
# own output), stops at the first failure, and removes every container, volume, cluster, file and
# process it made on every way out (a trap over names kept in this shell), printing the engine's
# container and volume counts before and after.
#
# Settings (environment):
#   IMAGE          the built image (box-office)
#   CONTAINER      the engine, for ps, volume, logs, stop, rm (docker)
#   CONTAINER_RUN  a wrapper that runs an image on the host's network, called as
#                  `$CONTAINER_RUN IMAGE [run options...] -- [command...]`; unset, the script runs
#                  `$CONTAINER run --network host [run options...] IMAGE [command...]`
#   BASE_PORT      3400: the proxy (compose's ${PORT:-8080}); the replicas take the next ports,
#                  PostgreSQL the one after them
# compose.yaml's own variables are set for the run: POSTGRES_PASSWORD and SESSION_SECRET made
# afresh, PAYMENT_PROVIDER=sandbox, SANDBOX_IN_PRODUCTION=yes, DEMO_CATALOGUE=auto (the buyer buys
# from the demo), PUBLIC_URL the proxy's address.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -e node_modules/tsx ] || [ ! -e node_modules/yaml ]; then
  echo "compose-by-hand: run \`npm ci\` in this checkout first (the buyer and the compose reader need it)" >&2
  exit 2
fi

IMAGE=${IMAGE:-box-office}
read -r -a engine <<<"${CONTAINER:-docker}"
read -r -a runner <<<"${CONTAINER_RUN:-}"
BASE_PORT=${BASE_PORT:-3400}
id=compose-$$
containers=()
volumes=()
clusters=()
files=()
pids=()
# shellcheck source=container/tap.sh
source "scripts/container/tap.sh"
counts() {
  local ps vs
  ps=$("${engine[@]}" ps -aq 2>&1) || ps="(ps failed: $ps)"
  vs=$("${engine[@]}" volume ls -q 2>&1) || vs="(volume ls failed: $vs)"
  printf '%s container(s), %s volume(s), %s PostgreSQL cluster(s)' \
    "$(printf '%s' "$ps" | grep -c . || true)" "$(printf '%s' "$vs" | grep -c . || true)" \
    "$(pg_lsclusters -h 2>/dev/null | grep -c . || true)"
}

cleanup() {
  local status=$?
  trap - ERR
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for name in "${containers[@]}"; do "${engine[@]}" rm -f "$name" >/dev/null 2>&1 || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  for volume in "${volumes[@]}"; do "${engine[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true; done
  for cluster in "${clusters[@]}"; do pg_dropcluster --stop 15 "$cluster" >/dev/null 2>&1 || true; done
  for file in "${files[@]}"; do rm -rf "$file"; done
  after=$(counts)
  say "# after:  $after"
  if [ "$after" != "$before" ]; then
    say "not ok $((checks + 1)) - left behind: before $before, after $after" >&2
    exit 1
  fi
  exit "$status"
}

# run_image [run options...] -- [command...]: the image in the foreground, on the host's network.
run_image() {
  local options=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    options+=("$1")
    shift
  done
  [ $# -gt 0 ] && shift
  if [ ${#runner[@]} -gt 0 ]; then
    "${runner[@]}" "$IMAGE" "${options[@]}" -- "$@"
  else
    "${engine[@]}" run --network host "${options[@]}" "$IMAGE" "$@"
  fi
}

# start NAME LOG [run options...] -- [command...]: a service's container, its output in LOG, its
# client's pid and name kept for cleanup (kept here, not in a subshell).
start() {
  local name=$1 log=$2
  shift 2
  containers+=("$name")
  files+=("$log")
  run_image --name "$name" "$@" >"$log" 2>&1 &
  pids+=($!)
  started_pid=$!
}

# ready PORT LOG: /readyz answers 200 (the image's HEALTHCHECK asks /healthz; the proxy waits for
# readiness, migrations and catalogue done); after 120 s, fails with the log's last lines.
ready() {
  await_ready "$1" || fail "nothing ready on port $1 after 120 s; its log ends: $(tail -5 "$2" | tr '\n' ' ')"
}

shape() { node scripts/container/compose-shape.mjs compose.yaml "$@" 2>&1; }
# to_host VALUE: a service's address in compose's network as it is on this host.
to_host() {
  local value=$1
  printf '%s' "${value//@db:5432\//@127.0.0.1:$pg_port/}"
}

proxy_port=$BASE_PORT
pg_port=$((BASE_PORT + 3))
before=$(counts)
say "# before: $before"
trap cleanup EXIT
trap 'exit 130' INT TERM

# compose.yaml's variables, as an operator's .env would give them.
export POSTGRES_PASSWORD SESSION_SECRET PAYMENT_PROVIDER=sandbox SANDBOX_IN_PRODUCTION=yes DEMO_CATALOGUE=auto \
  PORT=$proxy_port PUBLIC_URL=http://127.0.0.1:$proxy_port
POSTGRES_PASSWORD=$(node -e 'console.log(require("node:crypto").randomBytes(12).toString("hex"))')
SESSION_SECRET=$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("hex"))')

say "# compose.yaml: $(shape services)"
out=$(shape get services.app.deploy.replicas) || fail "compose.yaml: $out"
replicas=$out
out=$(shape env db) || fail "compose.yaml, db: $out"
mapfile -t db_env <<<"$out"
out=$(shape env migrate) || fail "compose.yaml, migrate: $out"
mapfile -t migrate_env <<<"$out"
out=$(shape env app) || fail "compose.yaml, app: $out"
mapfile -t app_env <<<"$out"
out=$(shape get services.migrate.command) || fail "compose.yaml, migrate: $out"
mapfile -t migrate_command <<<"$out"
out=$(shape get services.app.volumes) || fail "compose.yaml, app: $out"
app_volume=$out
case "$app_volume" in *:/app/data) ;; *) fail "compose.yaml: app's volume is $app_volume, not one at /app/data" ;; esac
# Both run with a read-only root filesystem; this script passes --read-only, so it checks they still do.
for service in migrate app; do
  out=$(shape get "services.$service.read_only") || fail "compose.yaml, $service: $out"
  [ "$out" = true ] || fail "compose.yaml: $service is not read_only"
done
out=$(shape get services.proxy.volumes) || fail "compose.yaml, proxy: $out"
case "$out" in ./deploy/nginx.conf:/etc/nginx/conf.d/default.conf*) ;; *) fail "compose.yaml: the proxy's configuration is $out" ;; esac
ok "compose.yaml read: $replicas app replicas; app's environment ${app_env[*]%%=*}"

say "# db"
for pair in "${db_env[@]}"; do declare "db_${pair%%=*}=${pair#*=}"; done
cluster=$id
clusters+=("$cluster")
out=$(pg_createcluster 15 "$cluster" -p "$pg_port" --start 2>&1) || fail "pg_createcluster: $out"
out=$(su postgres -c "psql -q -p $pg_port -v ON_ERROR_STOP=1" 2>&1 <<SQL
create role "$db_POSTGRES_USER" login password '$db_POSTGRES_PASSWORD';
create database "$db_POSTGRES_DB" owner "$db_POSTGRES_USER";
SQL
) || fail "creating db's user and database: $out"
for _ in $(seq 1 24); do
  pg_isready -q -h 127.0.0.1 -p "$pg_port" -U "$db_POSTGRES_USER" -d "$db_POSTGRES_DB" && break
  sleep 0.5
done
out=$(pg_isready -h 127.0.0.1 -p "$pg_port" -U "$db_POSTGRES_USER" -d "$db_POSTGRES_DB" 2>&1) || fail "db's healthcheck: $out"
ok "db healthy: $db_POSTGRES_USER's database $db_POSTGRES_DB on port $pg_port, password required ($out)"

say "# migrate"
migrate_options=(--read-only)
for pair in "${migrate_env[@]}"; do migrate_options+=(-e "$(to_host "$pair")"); done
containers+=("$id-migrate")
started=$(now)
out=$(run_image --rm --name "$id-migrate" "${migrate_options[@]}" -- "${migrate_command[@]}" 2>&1) || fail "migrate: $out"
case "$out" in *Applied:*) ;; *) fail "migrate printed no Applied: line: $out" ;; esac
ok "migrate completed in $(since "$started") s: $(printf '%s' "$out" | grep Applied: | cut -c1-70)…"

say "# app"
volume=$id-${app_volume%%:*}
volumes+=("$volume")
out=$("${engine[@]}" volume create "$volume" 2>&1) || fail "volume create $volume: $out"
app_options=(--read-only -v "$volume:/app/data")
for pair in "${app_env[@]}"; do app_options+=(-e "$(to_host "$pair")"); done
started=$(now)
app_pids=()
for replica in $(seq 1 "$replicas"); do
  start "$id-app-$replica" "/tmp/$id-app-$replica.log" "${app_options[@]}" -e PORT=$((BASE_PORT + replica)) --
  app_pids+=("$started_pid")
done
for replica in $(seq 1 "$replicas"); do ready $((BASE_PORT + replica)) "/tmp/$id-app-$replica.log"; done
say "$replicas replicas ready $(since "$started") s after starting together"
migrated=$(cat "/tmp/$id-app-"*.log | grep -c '"migrations applied"' || true)
loaded=$(cat "/tmp/$id-app-"*.log | grep -c '"demo catalogue loaded"' || true)
[ "$migrated" = 0 ] || fail "a replica applied migrations that migrate had applied"
[ "$loaded" = 1 ] || fail "the demo loaded by $loaded replicas"
ok "$replicas replicas on ports $((BASE_PORT + 1))-$((BASE_PORT + replicas)): nothing left to migrate, the demo loaded once"

say "# proxy"
conf=$(mktemp -d "/tmp/$id-nginx.XXXXXX")
files+=("$conf")
chmod 755 "$conf"
servers=
for replica in $(seq 1 "$replicas"); do servers+="  server 127.0.0.1:$((BASE_PORT + replica));"$'\n'; done
awk -v servers="$servers" -v port="$proxy_port" '
  /^resolver / { dropped++; next }
  /server app:3000 resolve;/ { printf "%s", servers; replaced++; next }
  /^  listen 8080;/ { print "  listen 127.0.0.1:" port ";"; listened++; next }
  { print }
  END { if (dropped != 1 || replaced != 1 || listened != 1) exit 1 }' deploy/nginx.conf >"$conf/default.conf" ||
  fail "deploy/nginx.conf no longer has the resolver, the app upstream and the listen 8080 this adapts"
cat >"$conf/nginx.conf" <<NGINX
daemon off;
worker_processes 1;
pid $conf/nginx.pid;
error_log $conf/error.log;
events {}
http {
  log_format upstream '\$upstream_addr \$status \$request_method \$uri';
  access_log $conf/access.log upstream;
  client_body_temp_path $conf/body;
  proxy_temp_path $conf/proxy;
  include $conf/default.conf;
}
NGINX
out=$(nginx -t -c "$conf/nginx.conf" 2>&1) || fail "nginx -t: $out"
nginx -c "$conf/nginx.conf" >"$conf/nginx.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 20); do curl -fsS -o /dev/null "http://127.0.0.1:$proxy_port/readyz" 2>/dev/null && break; sleep 0.25; done
out=$(curl -fsS "http://127.0.0.1:$proxy_port/readyz" 2>&1) || fail "the proxy: $out; $(cat "$conf/error.log" "$conf/nginx.out" 2>/dev/null | tail -3)"
ok "nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') with deploy/nginx.conf on port $proxy_port, in front of the replicas"

say "# a buyer without script, through the proxy"
out=$(node --import tsx scripts/container/smoke-buyer.ts "http://127.0.0.1:$proxy_port" 2>&1) || fail "the buyer: $out"
say "$out"
order=$(printf '%s' "$out" | sed -n 's/.*order \([A-Z0-9-]*\)$/\1/p')
spread=$(awk '{ print $1 }' "$conf/access.log" | sort | uniq -c | awk '{ printf "%s%s ×%s", sep, $2, $1; sep = ", " }')
served=$(awk '{ print $1 }' "$conf/access.log" | sort -u | grep -c '^127\.0\.0\.1:' || true)
[ "$served" = "$replicas" ] || fail "the proxy sent the buyer to $served of $replicas replicas: $spread"
database_url=postgres://$db_POSTGRES_USER:$db_POSTGRES_PASSWORD@127.0.0.1:$pg_port/$db_POSTGRES_DB
facts=$(psql -At "$database_url" -c "select count(*) || ' ' || string_agg(status, ',') from orders where email = 'smoke@example.com'" 2>&1) ||
  fail "reading the database: $facts"
[ "$facts" = "1 paid" ] || fail "orders for the buyer in the database: $facts, not one paid"
ok "bought through the proxy: order $order paid, the only one in the database; requests spread $spread"

say "# down"
for replica in $(seq 1 "$replicas"); do
  started=$(now)
  out=$("${engine[@]}" stop -t 10 "$id-app-$replica" 2>&1) || fail "stop $id-app-$replica: $out"
  # The foreground run ends with the container's own exit code.
  wait "${app_pids[$((replica - 1))]}" && code=0 || code=$?
  [ "$code" = 0 ] || fail "$id-app-$replica exited $code after SIGTERM: $(tail -3 "/tmp/$id-app-$replica.log")"
  say "$id-app-$replica stopped in $(since "$started") s, exit 0"
done
ok "replicas stopped on SIGTERM"
say "1..$checks"
say "compose.yaml ran by hand; tearing down"

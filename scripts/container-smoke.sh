#!/usr/bin/env bash
# Checks a built image the way an operator runs it (README and docs/operating.md, "Container"). Run it after any change
# to the Dockerfile, the entrypoint, compose.yaml or the server's start-up, once the image is
# built; it is not part of `npm test` (a build takes minutes). From a checkout after `npm ci`:
#
#   docker build -t box-office . && scripts/container-smoke.sh
#
# It runs, each on fresh volumes, and prints a line per check, TAP-style: "ok N - …", or
# "not ok N - …" with the failing command's own output, and stops at the first failure. Every
# container, volume, database and file it makes is removed on every way out (a trap over names
# kept in this shell, never in a subshell):
#   1. the image: runs as node under tini, carries no tsx, TypeScript or app/ sources
#   2. the site on its embedded database with a read-only root filesystem and the data volume,
#      the demo asked for: ready, serving, writing only to /app/data, stopping cleanly on SIGTERM
#   3. production defaults: no SESSION_SECRET, no start; an empty database stays empty (no demo)
#   4. the operator's commands inside the container: migrate, twice; catalogue:import of a mounted
#      file, and of a broken one (refused, nothing loaded); the site then serves what was imported
#   5. two replicas on one PostgreSQL database, started together: migrations and the demo once,
#      then a buyer without script whose every request goes to the other replica (a round-robin
#      proxy on one port) holds seats another buyer is not offered, pays with 3-D Secure, and the
#      database has one paid order, its tickets, and the payment captured once
#
# Settings (environment): IMAGE (box-office), ENGINE (docker), RUN_FLAGS (extra run options),
# ADMIN_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres: where it creates and drops a
# throw-away database; needs psql), BASE_PORT (3300: the proxy; the replicas take the next two).
# Containers use the host's network, so each listens on the PORT it is given.
#
# On the development machines (no Docker engine), with ../shared/tools/container's settings:
#   IMAGE=localhost/box-office:latest \
#   ENGINE="podman --storage-driver vfs --runtime runc --cgroup-manager cgroupfs" \
#   RUN_FLAGS="--ulimit nofile=20000:20000 --ulimit nproc=4096:4096" scripts/container-smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# Step 5's buyer runs on this machine with the repository's own test driver: say so at once
# rather than after four steps.
if [ ! -e node_modules/tsx ]; then
  echo "container-smoke: run \`npm ci\` in this checkout first (step 5's buyer needs its dev dependencies)" >&2
  exit 2
fi

IMAGE=${IMAGE:-box-office}
read -r -a engine <<<"${ENGINE:-docker}"
read -r -a run_flags <<<"${RUN_FLAGS:-}"
ADMIN_DATABASE_URL=${ADMIN_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}
BASE_PORT=${BASE_PORT:-3300}
id=smoke-$$
secret=$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("hex"))')
database=box_office_${id//-/_}
database_url=${ADMIN_DATABASE_URL%/*}/$database
containers=()
volumes=()
files=()
proxy_pid=
# shellcheck source=container/tap.sh
source "scripts/container/tap.sh"

cleanup() {
  trap - ERR
  if [ -n "$proxy_pid" ]; then kill "$proxy_pid" 2>/dev/null || true; fi
  for name in "${containers[@]}"; do "${engine[@]}" rm -f "$name" >/dev/null 2>&1 || true; done
  for volume in "${volumes[@]}"; do "${engine[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true; done
  for file in "${files[@]}"; do rm -f "$file"; done
  psql -q "$ADMIN_DATABASE_URL" -c "drop database if exists $database" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# volume NAME: makes the volume $id-NAME, kept for cleanup; its name is in $made. Not $(volume …):
# a subshell's `volumes+=` would never reach cleanup.
made=
volume() {
  made=$id-$1
  volumes+=("$made")
  "${engine[@]}" volume create "$made" >/dev/null || fail "could not create the volume $made"
}

# container [run options...] -- [command...]: the image run as an operator runs it, on the host's
# network with a read-only root filesystem; the options go before the image, the command after.
container() {
  local options=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    options+=("$1")
    shift
  done
  [ $# -gt 0 ] && shift
  "${engine[@]}" run --network host --read-only "${run_flags[@]}" "${options[@]}" "$IMAGE" "$@"
}

# start NAME [options...] -- [command...]: in the background, kept for its logs until cleanup.
start() {
  local name=$1
  shift
  containers+=("$name")
  container -d --name "$name" "$@" >/dev/null
}

# once [options...] -- [command...]: in the foreground, removed after; prints its output and its
# errors (with whatever the engine itself says, so checks look for words, not whole outputs).
once() {
  container --rm "$@" 2>&1
}

# ready PORT NAME: waits until /readyz answers 200 and says how long it took; after 120 s, fails
# with the container's last log lines.
ready() {
  await_ready "$1" || fail "nothing ready on port $1 after 120 s; $2's log ends: $(logs "$2" | tail -5 | tr '\n' ' ')"
}

# stop NAME: SIGTERM, then the exit code and how long it took.
stop() {
  local started code
  started=$(now)
  "${engine[@]}" stop -t 10 "$1" >/dev/null
  code=$("${engine[@]}" inspect --format '{{.State.ExitCode}}' "$1")
  [ "$code" = 0 ] || fail "$1 exited $code after SIGTERM"
  say "$1 stopped in $(since "$started") s, exit 0"
}

page() { curl -fsS "http://127.0.0.1:$1$2"; }
logs() { "${engine[@]}" logs "$1" 2>&1; }

p0=$BASE_PORT
p1=$((BASE_PORT + 1))
p2=$((BASE_PORT + 2))

say "# 1. the image: $IMAGE"
size=$("${engine[@]}" image inspect --format '{{.Size}}' "$IMAGE")
say "image size: $((size / 1000000)) MB"
# shellcheck disable=SC2016 # expanded inside the container
inside=$(once -- sh -c 'printf "%s %s " "$(id -un)" "$(cat /proc/1/comm)"
  for path in node_modules/tsx node_modules/typescript app server.ts; do [ -e "/app/$path" ] && printf "has:%s " "$path"; done
  [ -O /app/data ] && printf data-owned') || fail "could not run the image: $inside"
inside=${inside//$'\r'/}
case "$inside" in *"node tini data-owned"*) ;; *) fail "expected 'node tini data-owned' inside the image, got: $inside" ;; esac
ok "runs as node under tini; no tsx, TypeScript or app/ sources; /app/data belongs to node"

say "# 2. embedded SQLite, read-only root filesystem, the data volume, the demo asked for"
volume sqlite
data=$made
start "$id-sqlite" -v "$data:/app/data" -e PORT="$p1" -e SESSION_SECRET="$secret" -e PAYMENT_PROVIDER=sandbox -e SANDBOX_IN_PRODUCTION=yes -e DEMO_CATALOGUE=auto
ready "$p1" "$id-sqlite"
say "first start (migrations, demo catalogue): ready in $waited s"
page "$p1" / | grep -q "The Tide Tables" || fail "the home page does not list the demo's shows"
page "$p1" /healthz >/dev/null || fail "/healthz did not answer 200"
written=$("${engine[@]}" exec "$id-sqlite" ls /app/data) || fail "could not list /app/data: $written"
written=$(printf '%s' "$written" | tr '\n' ' ')
case "$written" in *box-office.sqlite*) ;; *) fail "no database in /app/data: $written" ;; esac
ok "serves the demo read-only; /app/data holds: $written"
stop "$id-sqlite"
"${engine[@]}" rm "$id-sqlite" >/dev/null
start "$id-sqlite-again" -v "$data:/app/data" -e PORT="$p1" -e SESSION_SECRET="$secret" -e PAYMENT_PROVIDER=sandbox -e SANDBOX_IN_PRODUCTION=yes -e DEMO_CATALOGUE=auto
ready "$p1" "$id-sqlite-again"
say "second start on the same volume: ready in $waited s"
logs "$id-sqlite-again" | grep -q "demo catalogue loaded" && fail "the demo was loaded again into a database that had it"
ok "the data outlived the container; nothing loaded twice"
stop "$id-sqlite-again"

say "# 3. production defaults"
refused=$(once -e PORT="$p1" -- || true)
case "$refused" in *"SESSION_SECRET: is required when APP_ENV is production"*) ;;
  *) fail "started without SESSION_SECRET: $refused" ;;
esac
ok "refuses to start without SESSION_SECRET"
unpaid=$(once -e PORT="$p1" -e SESSION_SECRET="$secret" -- || true)
case "$unpaid" in *"PAYMENT_PROVIDER: is required when APP_ENV is production"*) ;;
  *) fail "started without PAYMENT_PROVIDER: $unpaid" ;;
esac
ok "refuses to start without PAYMENT_PROVIDER"
volume empty
empty=$made
start "$id-empty" -v "$empty:/app/data" -e PORT="$p1" -e SESSION_SECRET="$secret" -e PAYMENT_PROVIDER=sandbox -e SANDBOX_IN_PRODUCTION=yes
ready "$p1" "$id-empty"
say "first start on an empty database: ready in $waited s"
page "$p1" / | grep -q "The Tide Tables" && fail "production loaded the demo catalogue without being asked"
logs "$id-empty" | grep -q "demo catalogue" && fail "production logged a demo load"
ok "an empty production database stays empty: no demo shows"
stop "$id-empty"

say "# 4. the operator's commands"
volume tools
tools=$made
output=$(once -v "$tools:/app/data" -- migrate) || fail "migrate: $output"
case "$output" in *Applied:*) say "migrate: $(printf '%s' "$output" | grep Applied: | cut -c1-90)…" ;; *) fail "migrate: $output" ;; esac
output=$(once -v "$tools:/app/data" -- migrate) || fail "migrate, again: $output"
case "$output" in *"Already up to date."*) say "migrate, again: Already up to date." ;; *) fail "migrate, again: $output" ;; esac
broken=$(mktemp --suffix=.json)
files+=("$broken")
echo '{"venues":[{"slug":"Not A Slug"}],"shows":[]}' >"$broken"
chmod 644 "$broken"
if output=$(once -v "$tools:/app/data" -v "$broken:/import/broken.json:ro" -- catalogue:import /import/broken.json); then
  fail "a broken catalogue was accepted: $output"
fi
say "catalogue:import of a broken file, refused: $(printf '%s' "$output" | grep -v level= | head -3 | tr '\n' ' ')"
output=$(once -v "$tools:/app/data" -v "$PWD/catalogue/demo.json:/import/catalogue.json:ro" -- \
  catalogue:import /import/catalogue.json) || fail "catalogue:import: $output"
case "$output" in *Imported*) say "catalogue:import: $(printf '%s' "$output" | grep Imported)" ;; *) fail "catalogue:import: $output" ;; esac
start "$id-tools" -v "$tools:/app/data" -e PORT="$p1" -e SESSION_SECRET="$secret" -e PAYMENT_PROVIDER=sandbox -e SANDBOX_IN_PRODUCTION=yes
ready "$p1" "$id-tools"
page "$p1" / | grep -q "The Tide Tables" || fail "the imported shows are not on the home page"
ok "migrate and catalogue:import run inside the container; the site serves what was imported"
stop "$id-tools"
if output=$(once -v "$tools:/app/data" -- refund); then fail "refund without an order number succeeded: $output"; fi
case "$output" in *"Usage:"*) ;; *) fail "refund without an order number: $output" ;; esac
output=$(once -v "$tools:/app/data" -e SESSION_SECRET="$secret" -e PAYMENT_PROVIDER=sandbox -e SANDBOX_IN_PRODUCTION=yes -- \
  refund NOPE-00000) && fail "a refund of an order that does not exist succeeded: $output"
case "$output" in *"No order NOPE-00000."*) ;; *) fail "refund of an unknown order: $output" ;; esac
ok "refund runs inside the container: usage without an order, a clear refusal for an unknown one"

say "# 5. two replicas on one PostgreSQL database"
output=$(psql -q "$ADMIN_DATABASE_URL" -c "create database $database" 2>&1) || fail "create database: $output"
volume outbox
outbox=$made
started=$(now)
for replica in 1 2; do
  port=$((BASE_PORT + replica))
  start "$id-pg-$replica" -v "$outbox:/app/data" -e PORT="$port" -e SESSION_SECRET="$secret" -e PAYMENT_PROVIDER=sandbox -e SANDBOX_IN_PRODUCTION=yes \
    -e DATABASE_URL="$database_url" -e DEMO_CATALOGUE=auto
done
ready "$p1" "$id-pg-1"
ready "$p2" "$id-pg-2"
say "both replicas ready $(since "$started") s after starting together on an empty database"
migrated=$( (logs "$id-pg-1" && logs "$id-pg-2") | grep -c '"migrations applied"' || true)
loaded=$( (logs "$id-pg-1" && logs "$id-pg-2") | grep -c '"demo catalogue loaded"' || true)
[ "$migrated" = 1 ] || fail "migrations applied by $migrated replicas"
[ "$loaded" = 1 ] || fail "the demo loaded by $loaded replicas"
ok "migrations applied once, the demo loaded once"
files+=("/tmp/$id-proxy.log")
node scripts/container/round-robin.mjs "$p0" "http://127.0.0.1:$p1" "http://127.0.0.1:$p2" >"/tmp/$id-proxy.log" 2>&1 &
proxy_pid=$!
sleep 0.5
node --import tsx scripts/container/smoke-buyer.ts "http://127.0.0.1:$p0" || fail "the buyer across replicas"
kill "$proxy_pid"
wait "$proxy_pid" 2>/dev/null || true
proxy_pid=
say "proxy: $(tail -1 "/tmp/$id-proxy.log")"
facts=$(psql -At "$database_url" -c "select count(*) || ' order(s) ' || string_agg(status, ',') from orders where email = 'smoke@example.com'" \
  -c "select count(*) || ' ticket(s)' from order_tickets t join orders o on o.id = t.order_id where o.email = 'smoke@example.com'" \
  -c "select count(*) || ' payment(s), captured ' || coalesce(sum(captured), 0) || ' of ' || coalesce(sum(amount), 0) from sandbox_payments where last4 = '3220'" \
  -c "select count(*) - count(distinct t.ref) || ' seat(s) sold twice' from order_tickets t join orders o on o.id = t.order_id
        where o.performance_id in (select performance_id from orders where email = 'smoke@example.com')" 2>&1) ||
  fail "reading the database: $facts"
facts=$(printf '%s\n' "$facts" | tr '\n' ';')
say "database: $facts"
case "$facts" in "1 order(s) paid;2 ticket(s);1 payment(s), captured "*" of "*";0 seat(s) sold twice;") ;;
  *) fail "the database does not hold one paid order of two tickets, captured once" ;;
esac
captured=$(printf '%s' "$facts" | sed -n 's/.*captured \([0-9]*\) of \([0-9]*\).*/\1 \2/p')
[ "${captured% *}" = "${captured#* }" ] || fail "captured ${captured% *}, not the ${captured#* } authorised"
ok "one paid order, two tickets, the payment captured once, across two replicas"
stop "$id-pg-1"
stop "$id-pg-2"

say "1..$checks"
say "all container checks passed"

# shellcheck shell=bash
# The container scripts' report (scripts/container-smoke.sh, scripts/compose-by-hand.sh): every
# check says `ok N - …` or `not ok N - …` with the failing command's own words. Sourced, so
# `checks` and the traps belong to the script's own shell.
checks=0

say() { printf '%s\n' "$*"; }
ok() {
  checks=$((checks + 1))
  say "ok $checks - $*"
}
# Called in the script's shell (never inside $(…), whose exit would end only the subshell).
fail() {
  say "not ok $((checks + 1)) - $*" >&2
  exit 1
}
# Anything else that fails (set -e) still says which command, where, rather than stopping silently.
trap 'status=$?; say "not ok $((checks + 1)) - line $LINENO: \`$BASH_COMMAND\` exited $status" >&2' ERR
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# await_ready PORT: waits up to 120 s for /readyz to answer 200, setting $waited to the seconds it
# took; false when it never did (the caller fails with what its logs say).
await_ready() {
  local started
  started=$(now)
  for _ in $(seq 1 240); do
    if curl -fsS -o /dev/null "http://127.0.0.1:$1/readyz" 2>/dev/null; then
      waited=$(since "$started")
      return 0
    fi
    sleep 0.5
  done
  return 1
}

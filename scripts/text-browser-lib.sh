# What scripts/text-browser-dumps.sh and scripts/staff-text-browser-dumps.sh share, sourced by
# both with `root` (the repository), `work` (a throw-away folder) and `out` (where the dumps go)
# set: the production build served on a free port, a browser without script (curl with a cookie
# jar, posting a page's own form fields as scripts/no-script-form.ts reads them), and what
# `lynx -dump -width=100` and `w3m -dump -cols 100` make of a page as that browser has it.
# shellcheck shell=bash

server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Serves the production build (`npm run build` first) as playwright.config.ts does: a throw-away
# DATA_DIR, the demo catalogue, the sandbox taking payments. Sets `base` to its address.
serve_build() {
  [[ -f $root/build/index.js ]] || { echo "no build: run npm run build first" >&2; exit 1; }
  mkdir "$work/data"
  # PORT=0: the system picks a free port, which the "listening" log line names.
  (cd "$root" && exec env NODE_ENV=production APP_ENV=production PORT=0 \
    SESSION_SECRET=text-browser-dumps-secret-long-enough-0123456789 \
    PAYMENT_PROVIDER=sandbox SANDBOX_IN_PRODUCTION=yes LOG_LEVEL=info \
    DATA_DIR="$work/data" DEMO_CATALOGUE=auto \
    node --import tsx server.ts) >"$work/server.log" 2>&1 &
  server_pid=$!
  local port=
  for _ in $(seq 1 120); do
    port=$(grep -o '"port":[0-9]*,.*"msg":"listening"' "$work/server.log" | grep -o '^"port":[0-9]*' | cut -d: -f2 | head -1 || true)
    [[ -n $port ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.5
  done
  [[ -n $port ]] || { echo "the server did not start in 60 s" >&2; cat "$work/server.log" >&2; exit 1; }
  base=http://localhost:$port
}

jar=$work/cookies.txt
form() { node --import tsx "$root/scripts/no-script-form.ts" "$@"; }
get() { curl -sS --fail -c "$jar" -b "$jar" "$base$1" >"$work/page.html"; }

# lynx reads cookies only from its cookie file, and only with persistent cookies on. It skips
# curl's "#HttpOnly_" lines as comments, drops a session cookie (expiry 0) as expired, and will not
# send a Secure one over plain http to localhost (where Chromium and curl do), so each is rewritten.
printf 'INCLUDE:/etc/lynx/lynx.cfg\nPERSISTENT_COOKIES:TRUE\nACCEPT_ALL_COOKIES:TRUE\n' >"$work/lynx.cfg"
lynx_dump() {
  sed 's/^#HttpOnly_//' "$jar" 2>/dev/null |
    awk -F'\t' 'BEGIN { OFS = "\t" } NF == 7 { $4 = "FALSE"; $5 = "2147483647" } { print }' >"$work/lynx-cookies.txt" || true
  lynx -cfg="$work/lynx.cfg" -cookie_file="$work/lynx-cookies.txt" -dump -width=100 "$base$1"
}
# w3m takes the jar's cookies as one Cookie header.
w3m_dump() {
  local cookies
  cookies=$(sed 's/^#HttpOnly_//' "$jar" 2>/dev/null | awk -F'\t' 'NF == 7 { printf "%s%s=%s", sep, $6, $7; sep = "; " }' || true)
  if [[ -n $cookies ]]; then w3m -dump -cols 100 -header "Cookie: $cookies" "$base$1"; else w3m -dump -cols 100 "$base$1"; fi
}
# NAME PATH: both dumps of the page at PATH, as OUTDIR/NAME.lynx.txt and OUTDIR/NAME.w3m.txt.
dump() {
  lynx_dump "$2" >"$out/$1.lynx.txt"
  w3m_dump "$2" >"$out/$1.w3m.txt"
  echo "$out/$1.lynx.txt, $out/$1.w3m.txt: $2"
}

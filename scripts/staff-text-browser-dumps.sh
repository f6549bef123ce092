#!/usr/bin/env bash
# What text browsers make of the staff's pages (issue 55): `lynx -dump -width=100` and
# `w3m -dump -cols 100` of the sign-in page, the start page, the door's choice of performance, the
# door ready to check tickets and its answer to a code, written to OUTDIR as staff-sign-in,
# staff-home, staff-door-choose, staff-door and staff-door-answer (.lynx.txt and .w3m.txt).
#
#   scripts/staff-text-browser-dumps.sh OUTDIR
#
# Serves the production build (`npm run build` first) as scripts/text-browser-dumps.sh does (a
# throw-away DATA_DIR, the demo catalogue, a free port), adds a door member with the staff command
# and signs them in as a browser without script would (curl with a cookie jar, posting the form's
# own fields, read by scripts/no-script-form.ts). The answer is the page the check-in form's POST
# returns, which the text browsers read from the file.
set -euo pipefail

out=${1:?usage: scripts/staff-text-browser-dumps.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
mkdir -p "$out"
email=door@venue.example
password='a long door password'

server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

[[ -f $root/build/index.js ]] || { echo "no build: run npm run build first" >&2; exit 1; }
mkdir "$work/data"
(cd "$root" && exec env NODE_ENV=production APP_ENV=production PORT=0 \
  SESSION_SECRET=text-browser-dumps-secret-long-enough-0123456789 \
  PAYMENT_PROVIDER=sandbox SANDBOX_IN_PRODUCTION=yes LOG_LEVEL=info \
  DATA_DIR="$work/data" DEMO_CATALOGUE=auto \
  node --import tsx server.ts) >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  port=$(grep -o '"port":[0-9]*,.*"msg":"listening"' "$work/server.log" | grep -o '^"port":[0-9]*' | cut -d: -f2 | head -1 || true)
  [[ -n $port ]] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.5
done
[[ -n ${port:-} ]] || { echo "the server did not start in 60 s" >&2; cat "$work/server.log" >&2; exit 1; }
base=http://localhost:$port

(cd "$root" && DATA_DIR="$work/data" STAFF_PASSWORD=$password \
  node --import tsx scripts/staff.ts add --email "$email" --name "Sam Door" --role door) >/dev/null

jar=$work/cookies.txt
form() { node --import tsx "$root/scripts/no-script-form.ts" "$@"; }
get() { curl -sS --fail -c "$jar" -b "$jar" "$base$1" >"$work/page.html"; }

# As scripts/text-browser-dumps.sh: lynx reads cookies only from its own file, with curl's
# "#HttpOnly_" prefix, session expiry and Secure flag rewritten; w3m takes them as one header.
printf 'INCLUDE:/etc/lynx/lynx.cfg\nPERSISTENT_COOKIES:TRUE\nACCEPT_ALL_COOKIES:TRUE\n' >"$work/lynx.cfg"
lynx_dump() {
  sed 's/^#HttpOnly_//' "$jar" 2>/dev/null |
    awk -F'\t' 'BEGIN { OFS = "\t" } NF == 7 { $4 = "FALSE"; $5 = "2147483647" } { print }' >"$work/lynx-cookies.txt" || true
  lynx -cfg="$work/lynx.cfg" -cookie_file="$work/lynx-cookies.txt" -dump -width=100 "$base$1"
}
w3m_dump() {
  local cookies
  cookies=$(sed 's/^#HttpOnly_//' "$jar" 2>/dev/null | awk -F'\t' 'NF == 7 { printf "%s%s=%s", sep, $6, $7; sep = "; " }' || true)
  if [[ -n $cookies ]]; then w3m -dump -cols 100 -header "Cookie: $cookies" "$base$1"; else w3m -dump -cols 100 "$base$1"; fi
}
dump() {
  lynx_dump "$2" >"$out/$1.lynx.txt"
  w3m_dump "$2" >"$out/$1.w3m.txt"
  echo "$out/$1.lynx.txt, $out/$1.w3m.txt: $2"
}

dump staff-sign-in /staff/sign-in

get /staff/sign-in
body=$(form form "Sign in" "email=$email" "password=$password" <"$work/page.html")
status=$(curl -sS -c "$jar" -b "$jar" -o /dev/null -w '%{http_code}' --data "$body" "$base/staff/sign-in")
[[ $status == 303 ]] || { echo "signing in answered $status" >&2; exit 1; }

dump staff-home /staff
dump staff-door-choose /staff/door

# The first performance the door may choose, at the "Stalls door".
get /staff/door
performance=$(grep -o '<option value="[^"]\+"' "$work/page.html" | head -1 | cut -d'"' -f2)
[[ -n $performance ]] || { echo "no performance to check tickets in for" >&2; exit 1; }
door="/staff/door?performance=$performance&door=Stalls+door"
dump staff-door "$door"

# A code no ticket has: the answer the door reads first ("Unknown code: do not admit").
get "$door"
body=$(form form "Check in" "code=2345 6789 ABCD EFGH JKLM" <"$work/page.html")
curl -sS -c "$jar" -b "$jar" -o "$work/answer.html" --data "$body" "$base$door"
# Read from a file, whose links lynx resolves against it: put back the address the page came from.
lynx -dump -width=100 -force_html "$work/answer.html" |
  sed -e "s#file://$work/answer.html#$base${door//&/\\&}#" -e "s#file:///#$base/#" >"$out/staff-door-answer.lynx.txt"
w3m -dump -cols 100 -T text/html "$work/answer.html" >"$out/staff-door-answer.w3m.txt"
echo "$out/staff-door-answer.lynx.txt, $out/staff-door-answer.w3m.txt: POST $door"

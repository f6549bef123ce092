#!/usr/bin/env bash
# What text browsers make of the calendar, the seat map and the payment page (issue 40's proof):
# `lynx -dump -width=100` and `w3m -dump -cols 100` of each, written to OUTDIR as
# calendar.lynx.txt, calendar.w3m.txt, seat-map.lynx.txt, seat-map.w3m.txt, payment.lynx.txt and
# payment.w3m.txt.
#
#   scripts/text-browser-dumps.sh OUTDIR [BASE_URL]
#
# Without BASE_URL it serves the production build (`npm run build` first) itself, as
# playwright.config.ts does: a throw-away DATA_DIR, the demo catalogue, the sandbox taking
# payments, on a free port. With BASE_URL it uses that server, which must have the demo catalogue.
#
# The payment page needs seats held and every step before it answered: curl does that with a
# cookie jar, posting each form as a browser without script would (its own fields, its CSRF token,
# the pressed button), worked out from the page by scripts/no-script-form.ts.
set -euo pipefail

out=${1:?usage: scripts/text-browser-dumps.sh OUTDIR [BASE_URL]}
base=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
mkdir -p "$out"

# A Winter's Crossing at Harbour Playhouse, the default look's show in scripts/screenshots.ts
# too: a 900-seat map keeps the seat-map dump readable (the 2,341-seat one is three times longer).
show=/shows/a-winters-crossing/harbour-playhouse
seats=("Stalls, row J, seat 10," "Stalls, row J, seat 11,")

server_pid=
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

if [[ -z $base ]]; then
  [[ -f $root/build/index.js ]] || { echo "no build: run npm run build first" >&2; exit 1; }
  mkdir "$work/data"
  # PORT=0: the system picks a free port, which the "listening" log line names.
  (cd "$root" && exec env NODE_ENV=production APP_ENV=production PORT=0 \
    SESSION_SECRET=text-browser-dumps-secret-long-enough-0123456789 \
    PAYMENT_PROVIDER=sandbox SANDBOX_IN_PRODUCTION=yes LOG_LEVEL=info \
    DATA_DIR="$work/data" DEMO_CATALOGUE=auto \
    node --import tsx server.ts) >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 120); do
    port=$(grep -o '"port":[0-9]*,.*"msg":"listening"' "$work/server.log" | grep -o '^"port":[0-9]*' | cut -d: -f2 || true)
    [[ -n $port ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.5
  done
  [[ -n ${port:-} ]] || { echo "the server did not start in 60 s" >&2; cat "$work/server.log" >&2; exit 1; }
  base=http://localhost:$port
fi
base=${base%/}

jar=$work/cookies.txt
form() { node --import tsx "$root/scripts/no-script-form.ts" "$@"; }
get() { curl -sS --fail -c "$jar" -b "$jar" "$base$1" >"$work/page.html"; }
# Posts the form of the page at PATH whose button reads BUTTON (with CHANGEs, see no-script-form.ts)
# and checks it answered with a redirect, as every step does when it accepts the form.
submit() {
  local path=$1
  shift
  get "$path"
  local body status
  body=$(form form "$@" <"$work/page.html")
  status=$(curl -sS -c "$jar" -b "$jar" -o "$work/answer.html" -w '%{http_code}' --data "$body" "$base$path")
  [[ $status == 302 || $status == 303 ]] || {
    echo "POST $path answered $status, not a redirect:" >&2
    lynx -dump -stdin -force_html <"$work/answer.html" | head -40 >&2
    exit 1
  }
}

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
dump() {
  lynx_dump "$2" >"$out/$1.lynx.txt"
  w3m_dump "$2" >"$out/$1.w3m.txt"
  echo "$out/$1.lynx.txt, $out/$1.w3m.txt: $2"
}

# The calendar's first month, as a buyer arriving from the show page sees it.
dump calendar "$show/calendar"

# The seat map of the first performance on general sale with good availability (the demo sells
# some out, or nearly, on purpose), before any seat is held.
get "$show/calendar"
tickets=$(form link "Good availability" <"$work/page.html")
dump seat-map "$tickets"

# Hold two fixed seats and answer each step: no extras, no protection, e-tickets, contact details.
submit "$tickets" "Reserve selected seats" "${seats[@]/#/@}"
get "$tickets"
# A performance with a notice (strobe lighting, gunfire) or admission information (latecomers) asks
# the buyer to confirm they read each (ackNotice, ackAdmission): tick every one the page has.
mapfile -t acknowledgements < <(grep -o 'name="ack[A-Za-z]*" value="[^"]*"' "$work/page.html" | sed 's/name="\([^"]*\)" value="\([^"]*\)"/\1=\2/')
submit "$tickets" Continue "${acknowledgements[@]}"
submit /checkout/extras Continue
submit /checkout/ticket-protection Continue "@No, I accept"
submit /checkout/collection Continue "@E-ticket"
submit /checkout/contacts Continue firstName=Jo lastName=Bloggs email=jo@example.com confirmEmail=jo@example.com \
  "phone=020 7946 0000" termsAccepted=on
dump payment /checkout/payment

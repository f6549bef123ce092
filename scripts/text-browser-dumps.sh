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

# shellcheck source=scripts/text-browser-lib.sh
source "$root/scripts/text-browser-lib.sh"
[[ -n $base ]] || serve_build
base=${base%/}

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

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

# shellcheck source=scripts/text-browser-lib.sh
source "$root/scripts/text-browser-lib.sh"
serve_build

(cd "$root" && DATA_DIR="$work/data" STAFF_PASSWORD=$password \
  node --import tsx scripts/staff.ts add --email "$email" --name "Sam Door" --role door) >/dev/null

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

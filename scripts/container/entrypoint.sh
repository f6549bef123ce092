#!/bin/sh
# The container's commands (README and docs/operating.md, "Container"): the site by default, and the operator's tools.
#   serve                      the site (the default)
#   migrate                    bring the database to the latest migration
#   catalogue:import FILE      load a catalogue file (all of it or nothing)
#   refund ORDER [--tickets …] [--reason …]
#                              refund a paid order, whole or some tickets (docs/buying.md, "Refunds")
#   vouchers locked | unlock NUMBER
#                              card numbers locked by wrong codes; lift one (docs/buying.md, "Gift vouchers")
#   staff add --email E --name N --role door|box-office|manager | remove --email E | list
#                              the venue's staff (docs/operating.md, "Staff"); the password from
#                              STAFF_PASSWORD or typed (docker run -it), never an argument
set -e
command=${1:-serve}
[ $# -gt 0 ] && shift
case "$command" in
  serve) exec node /app/build/server/server.js "$@" ;;
  migrate) exec node /app/build/server/scripts/migrate.js "$@" ;;
  catalogue:import) exec node /app/build/server/scripts/catalogue-import.js "$@" ;;
  refund) exec node /app/build/server/scripts/refund.js "$@" ;;
  vouchers) exec node /app/build/server/scripts/vouchers.js "$@" ;;
  staff) exec node /app/build/server/scripts/staff.js "$@" ;;
  *) exec "$command" "$@" ;;
esac

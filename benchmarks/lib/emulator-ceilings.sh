#!/usr/bin/env bash
# Sourced by the local-mode benchmarks: this machine's bare append ceilings, the yardstick every
# local-mode figure is reported beside (docs/LOCAL.md "Measured on this machine class").

# The built local-mode jar of the checkout at ROOT, which emulator_ceilings runs.
local_mode_jar() {
  printf '%s' "$1/local-mode/target/local-mode-bundled.jar"
}

# Runs io.thriftbq.local.EmulatorCeilings from ROOT's built local-mode jar against fresh
# emulators on 127.0.0.1 and prints what it prints, among it one line per ceiling:
#   ceiling<TAB>what<TAB>per_second      (what: e.g. storage_write_append_500)
#
#   emulator_ceilings ROOT EVENTS ROWS_PER_REQUEST SOURCE [WRAPPER...]
#
# ROWS_PER_REQUEST is one size or a comma-separated list (500,10); SOURCE (pubsub or kafka) gives
# the rows a run from that source writes; WRAPPER, when given, is the command the JVM runs under
# (timeout 600, benchmarks/slow-end.sh --factor F --, ...).
emulator_ceilings() {
  local root="$1" events="$2" rows_per_request="$3" source="$4"
  shift 4
  (cd "${root}" && NO_GCE_CHECK=true "$@" java -Xmx2g -Dthriftbq.repoRoot="${root}" \
    -cp "$(local_mode_jar "${root}")" io.thriftbq.local.EmulatorCeilings \
    "${events}" 1 "${rows_per_request}" "${source}")
}

# The per-second figure of one ceiling (e.g. storage_write_append_500) in emulator_ceilings'
# output on stdin; nothing when it is not there.
ceiling_of() {
  awk -F '\t' -v what="$1" '$1 == "ceiling" && $2 == what { print $3 }'
}

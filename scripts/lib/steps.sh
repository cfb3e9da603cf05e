# shellcheck shell=bash
# Globals set here are read by the scripts that source common.sh:
# shellcheck disable=SC2034
#
# The tuning steps. Their table is scripts/lib/tuning-steps.tsv, the ONE step table: local mode
# and the tests read the same file, so a --local run has exactly the cloud step's flags. Sourced by
# common.sh.

STEP_TABLE="$SCRIPTS_DIR/lib/tuning-steps.tsv"

# step_numbers: the step numbers of the table, one per line.
step_numbers() {
  local number rest
  while IFS=$'\t' read -r number rest; do
    [[ -z "$number" || "$number" == \#* ]] && continue
    printf '%s\n' "$number"
  done <"$STEP_TABLE"
}

# step_settings N: set STEP_NAME, STEP_TITLE, STEP_SETTING, STEP_LESSON and STEP_ARGS (ingestion
# flags) from the step table.
step_settings() {
  local number name title setting lesson flags
  while IFS=$'\t' read -r number name title setting lesson flags; do
    [[ -z "$number" || "$number" == \#* ]] && continue
    if [[ "$number" == "$1" ]]; then
      STEP_NAME="$name"
      STEP_TITLE="$title"
      STEP_SETTING="$setting"
      STEP_LESSON="$lesson"
      read -r -a STEP_ARGS <<<"$flags"
      return 0
    fi
  done <"$STEP_TABLE"
  die "unknown step '$1' (steps: $(step_numbers | tr '\n' ' '))"
}

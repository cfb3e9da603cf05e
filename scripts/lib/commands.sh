# shellcheck shell=bash
# Globals set here are read by the scripts that source common.sh:
# shellcheck disable=SC2034
#
# Logging, and command execution with dry run: every command that touches the cloud, Terraform,
# Maven or Java goes through `run` (or `run_in`/`run_capture`), so --dry-run prints it and calls
# nothing. Sourced by common.sh.

# Logging

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
warn() { printf '[%s] WARNING: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
# die MESSAGE [EXIT_CODE]: print an error and exit (2 for usage errors, 1 otherwise).
die() {
  printf 'ERROR: %s\n' "$1" >&2
  exit "${2:-1}"
}
usage_error() {
  printf 'ERROR: %s\n' "$1" >&2
  printf "Run '%s --help' for usage.\n" "$(basename "$0")" >&2
  exit 2
}

# ---------------------------------------------------------------------------------------------
# Command execution

# quote_word WORD: shell-quote WORD for display, keeping $(...) placeholders that dry runs put in
# for values only a real run can know (Terraform outputs) so the printed line can be pasted.
quote_word() {
  local w="$1"
  # shellcheck disable=SC2016,SC1003 # a literal $( and a literal backslash on purpose
  if [[ "$w" =~ ^[A-Za-z0-9_./:=,@%+^~-]+$ ]]; then
    printf '%s' "$w"
  elif [[ "$w" == *'$('* && "$w" != *'"'* && "$w" != *'\'* ]]; then
    printf '"%s"' "$w"
  else
    printf "'%s'" "${w//\'/\'\\\'\'}"
  fi
}

# format_cmd CMD...: the command as one line.
format_cmd() {
  local out="" w
  for w in "$@"; do
    out+="$(quote_word "$w") "
  done
  printf '%s' "${out% }"
}

# run CMD...: print the command; execute it unless this is a dry run.
run() {
  if ((DRY_RUN)); then
    printf '%s\n' "$(format_cmd "$@")"
    return 0
  fi
  printf '+ %s\n' "$(format_cmd "$@")" >&2
  "$@"
}

# run_in DIR CMD...: like run, inside DIR (a subshell, so the caller's directory is unchanged).
run_in() {
  local dir="$1"
  shift
  if ((DRY_RUN)); then
    printf '(cd %s && %s)\n' "$(quote_word "$dir")" "$(format_cmd "$@")"
    return 0
  fi
  printf '+ (cd %s && %s)\n' "$(quote_word "$dir")" "$(format_cmd "$@")" >&2
  (cd "$dir" && "$@")
}

# run_capture VAR CMD...: like run, and store the command's standard output in VAR (also shown on
# stderr). In a dry run VAR gets an empty string.
run_capture() {
  local -n _rc_out="$1"
  shift
  _rc_out=""
  if ((DRY_RUN)); then
    printf '%s\n' "$(format_cmd "$@")"
    return 0
  fi
  printf '+ %s\n' "$(format_cmd "$@")" >&2
  local tmp status=0
  tmp="$(mktemp)"
  "$@" >"$tmp" 2>&1 || status=$?
  cat "$tmp" >&2
  _rc_out="$(cat "$tmp")"
  rm -f "$tmp"
  return "$status"
}

# query CMD...: a read-only query whose output the script needs (job lists, states). In a dry run
# it is printed and returns nothing.
query() {
  if ((DRY_RUN)); then
    printf '%s\n' "$(format_cmd "$@")"
    return 0
  fi
  "$@"
}

require_command() {
  local c
  for c in "$@"; do
    command -v "$c" >/dev/null 2>&1 || die "'$c' is not installed or not on PATH; see docs/DEPLOYMENT.md (Prerequisites)."
  done
}

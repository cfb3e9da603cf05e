# shellcheck shell=bash
# Globals set here are read by the scripts that source common.sh:
# shellcheck disable=SC2034
#
# The one argument parser of the scripts. A script lists its flags in FLAG_SPEC, an associative
# array from the flag to what it sets:
#   VAR       the flag takes a value (--flag VALUE or --flag=VALUE), which becomes VAR
#   VAR,      the same, repeatable: the values are joined into the comma-separated list VAR
#   VAR[]     the same, repeatable: each value is appended to the array VAR
#   VAR[--]   like VAR[], for values that are flags of another program (--generator-arg=--seed=7)
#   =VAR      a switch, without a value, that sets VAR=1
# sets the defaults, and calls parse_flags "$@". Every script also takes -h/--help (runs the
# function named by FLAG_USAGE, default usage, and exits) and --dry-run (DRY_RUN=1). With
# FLAG_REST=ARRAY, the arguments after -- are appended to ARRAY; any other argument goes to the
# function named by FLAG_OTHER (default: a usage error). Sourced by common.sh.

declare -gA FLAG_SPEC=()
FLAG_USAGE=usage
FLAG_OTHER=unknown_argument
FLAG_REST=""

# need_value OPTION "$@": fail if the option has no value after it.
need_value() {
  [[ $# -ge 2 && -n "$2" && "$2" != --* ]] || usage_error "$1 needs a value."
}

unknown_argument() {
  usage_error "unknown argument '$1'."
}

# append_to ARRAY VALUE: ARRAY+=(VALUE), for the array a flag names.
append_to() {
  local -n _append_array="$1"
  _append_array+=("$2")
}

# append_to_list VAR VALUE: VALUE added to the comma-separated list VAR.
append_to_list() {
  local -n _append_list="$1"
  _append_list="${_append_list:+$_append_list,}$2"
}

# parse_flags "$@": sets the variables of FLAG_SPEC from the arguments (see the top of this file).
parse_flags() {
  local flag spec
  while [[ $# -gt 0 ]]; do
    flag="${1%%=*}"
    spec="${FLAG_SPEC[$flag]:-}"
    if [[ "$1" == -h || "$1" == --help ]]; then
      "$FLAG_USAGE"
      exit 0
    elif [[ "$1" == --dry-run ]]; then
      DRY_RUN=1
    elif [[ "$1" == -- && -n "$FLAG_REST" ]]; then
      shift
      for flag in "$@"; do
        append_to "$FLAG_REST" "$flag"
      done
      return 0
    elif [[ -z "$spec" || ("$spec" == =* && "$1" != "$flag") ]]; then
      "$FLAG_OTHER" "$1"
    elif [[ "$spec" == =* ]]; then
      printf -v "${spec#=}" 1
    else
      # A value: --flag=VALUE is --flag VALUE.
      [[ "$1" == "$flag" ]] || set -- "$flag" "${1#*=}" "${@:2}"
      case "$spec" in
        *'[--]')
          [[ $# -ge 2 && -n "$2" ]] || usage_error "$1 needs a value."
          append_to "${spec%'[--]'}" "$2"
          ;;
        *'[]')
          need_value "$@"
          append_to "${spec%'[]'}" "$2"
          ;;
        *,)
          need_value "$@"
          append_to_list "${spec%,}" "$2"
          ;;
        *)
          need_value "$@"
          printf -v "$spec" '%s' "$2"
          ;;
      esac
      shift
    fi
    shift
  done
}

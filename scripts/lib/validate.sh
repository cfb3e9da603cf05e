# shellcheck shell=bash
# Globals set here are read by the scripts that source common.sh:
# shellcheck disable=SC2034
#
# The checks of the scripts' flags, each failing with a usage error that says what to change.
# The rules the pipelines check too come from their Java constants, through
# patterns.generated.sh; the others (project, region, prefix) are Terraform's and gcloud's.
# Sourced by common.sh.

# shellcheck source-path=SCRIPTDIR source-path=SCRIPTDIR/lib source=patterns.generated.sh
source "$(dirname "${BASH_SOURCE[0]}")/patterns.generated.sh"

# matches_pattern VALUE PATTERN: whether VALUE matches PATTERN, one of patterns.generated.sh, as
# Java's Pattern.matches does. In the C locale ranges are ASCII and every byte is a character; the
# generator allows no bounded count on a negated class, the one place where counting bytes instead
# of characters would differ.
matches_pattern() {
  local LC_ALL=C
  [[ "$1" =~ $2 ]]
}

# is_attribute_key KEY: whether Pub/Sub accepts KEY as an attribute's key (PubsubNames.isAttributeKey:
# at most PUBSUB_MAX_ATTRIBUTE_KEY_BYTES bytes, not starting with PUBSUB_RESERVED_ATTRIBUTE_PREFIX).
is_attribute_key() {
  local LC_ALL=C # ${#1} counts bytes
  ((${#1} <= PUBSUB_MAX_ATTRIBUTE_KEY_BYTES)) && [[ "$1" != "$PUBSUB_RESERVED_ATTRIBUTE_PREFIX"* ]]
}

# trim TEXT: TEXT without leading and trailing spaces (the pipelines trim list items alike).
trim() {
  local text="$1"
  text="${text#"${text%%[! ]*}"}"
  printf '%s' "${text%"${text##*[! ]}"}"
}

validate_project() {
  [[ -n "${1:-}" ]] || usage_error "--project is required (or set GOOGLE_CLOUD_PROJECT)."
  [[ "$1" =~ ^[a-z][a-z0-9-]{4,28}[a-z0-9]$ ]] ||
    usage_error "--project '$1' is not a valid project id (6-30 lowercase letters, digits, hyphens; starts with a letter)."
}

validate_region() {
  [[ -n "${1:-}" ]] || usage_error "--region is required."
  [[ "$1" =~ ^[a-z]+-[a-z]+[0-9]+$ ]] || usage_error "--region '$1' is not a region such as us-central1."
}

# Same rule as terraform/variables.tf name_prefix.
validate_prefix() {
  [[ "${1:-}" =~ ^[a-z]([a-z0-9]|-[a-z0-9]){2,19}$ ]] ||
    usage_error "--prefix '${1:-}' must be 3-20 lowercase letters, digits and single hyphens, starting with a letter."
}

# validate_positive_int OPTION VALUE
validate_positive_int() {
  [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || usage_error "$1 must be a positive integer, got '${2:-}'."
}

validate_step() {
  local steps
  steps="$(step_numbers | tr '\n' ' ')"
  [[ " $steps" == *" ${1:-x} "* ]] || usage_error "--step must be one of ${steps% }, got '${1:-}'."
}

validate_file() {
  [[ -f "${2:-}" ]] || usage_error "$1 file '${2:-}' does not exist."
}

# validate_source: --source is pubsub or kafka (any case; SOURCE is set to lowercase).
validate_source() {
  SOURCE="$(tr '[:upper:]' '[:lower:]' <<<"${SOURCE:-pubsub}")"
  [[ "$SOURCE" == pubsub || "$SOURCE" == kafka ]] ||
    usage_error "--source must be pubsub or kafka, got '$SOURCE'."
}

# ---------------------------------------------------------------------------------------------
# The event types of a job (one struct, or several: issue 22). A struct is Name or FILE.Name (the
# IDL file name without .thrift); --structs may give the generator a share per struct (NAME:WEIGHT).

# many_types: whether the launch names several event types (--structs or --union).
many_types() { [[ -n "${STRUCTS:-}" || -n "${UNION:-}" ]]; }

# trim_list LIST: the comma-separated LIST without spaces around its items.
trim_list() {
  local item out=""
  local -a items
  IFS=, read -r -a items <<<"$1"
  for item in "${items[@]}"; do
    out+="$(trim "$item"),"
  done
  printf '%s' "${out%,}"
}

# struct_names LIST: --structs without the generator's weights (the pipeline takes names only).
struct_names() {
  local item out=""
  local -a items
  IFS=, read -r -a items <<<"$(trim_list "$1")"
  for item in "${items[@]}"; do
    out+="${item%%:*},"
  done
  printf '%s' "${out%,}"
}

# validate_event_types: the rules of --idl, --struct, --structs, --union, --struct-attribute,
# --table-for-struct (globals IDL STRUCT STRUCTS UNION STRUCT_ATTRIBUTE TABLE_FOR_STRUCT
# IDL_INCLUDE). The IDL file itself is checked by the caller (local file or gs://).
validate_event_types() {
  if [[ -n "${STRUCTS:-}" ]] && ! matches_pattern "$STRUCTS" "$THRIFT_STRUCTS_REGEX"; then
    usage_error "--structs must list struct names separated by commas, like Order,Refund,Click (FILE.Name when a name is ambiguous; Name:WEIGHT sets the generator's share), got '$STRUCTS'."
  fi
  if [[ -n "${UNION:-}" ]] && ! matches_pattern "$UNION" "$THRIFT_STRUCT_REGEX"; then
    usage_error "--union must name one union of the IDL, like AnyEvent, got '$UNION'."
  fi
  if many_types; then
    [[ -n "${IDL:-}" ]] ||
      usage_error "--structs and --union name structs of a Thrift IDL: add --idl FILE, the .thrift file that declares them."
    [[ -z "${STRUCT:-}" ]] ||
      usage_error "give --struct for one struct, or --structs/--union for several, not both."
  elif [[ -n "${IDL:-}" && -z "${STRUCT:-}" ]]; then
    usage_error "--idl needs --struct: name the struct each message holds (or --structs A,B,C or --union U for several event types)."
  elif [[ -z "${IDL:-}" && (-n "${STRUCT:-}" || -n "${IDL_INCLUDE:-}") ]]; then
    usage_error "--struct and --idl-include need --idl."
  fi
  if [[ -n "${STRUCT_ATTRIBUTE:-}" ]]; then
    [[ -n "${STRUCTS:-}" && -z "${UNION:-}" ]] ||
      usage_error "--struct-attribute names the message attribute that says which of --structs a message holds: it needs --structs, and a --union job does not read it."
    is_attribute_key "$STRUCT_ATTRIBUTE" ||
      usage_error "--struct-attribute '$STRUCT_ATTRIBUTE' is not a usable Pub/Sub attribute name (at most $PUBSUB_MAX_ATTRIBUTE_KEY_BYTES bytes; not starting with $PUBSUB_RESERVED_ATTRIBUTE_PREFIX)."
  fi
  if [[ -n "${TABLE_FOR_STRUCT:-}" ]]; then
    many_types ||
      usage_error "--table-for-struct sends structs of a many-types job to their own tables: it needs --structs or --union."
    local entry name
    local -a entries
    IFS=, read -r -a entries <<<"$TABLE_FOR_STRUCT"
    for entry in "${entries[@]}"; do
      entry="$(trim "$entry")"
      matches_pattern "$entry" "$TABLE_FOR_STRUCT_ENTRY_REGEX" ||
        usage_error "--table-for-struct entries must be Struct=PROJECT:DATASET.TABLE (comma-separated), got '$entry'."
      name="${entry%%=*}"
      if [[ -n "${STRUCTS:-}" && ",$(struct_names "$STRUCTS")," != *",$name,"* ]]; then
        usage_error "--table-for-struct names $name, which is not one of --structs $(struct_names "$STRUCTS")."
      fi
    done
  fi
  return 0
}

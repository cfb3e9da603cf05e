#!/usr/bin/env bash
# Export the BigQuery schemas derived from a Thrift struct into the JSON files Terraform reads
# (terraform/schemas/event_table.json and dead_letter_table.json by default); for several event
# types (--structs, --union) one file per struct (terraform/schemas/<table name>.json) and the
# Terraform map event_tables that creates their tables (terraform/schemas/event_tables.tfvars.json).
# Change mode (--primary-key, --max-staleness, or --primaryKey/--maxStaleness after --): the
# tables' key and max_staleness too, checked as the launch checks them (event_tables entries, or
# terraform/schemas/event_table.tfvars.json for the single table).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/common.sh"

usage() {
  cat <<EOF2
Usage: $(basename "$0") [options] [-- EXPORTER_FLAGS...]
       $(basename "$0") --idl FILE --structs A,B,C [--union U] [options]

Runs io.thriftbq.ingest.SchemaExporter from the bundled ingestion jar. The event table
schema must match what the pipeline derives at run time with the same flags, so pass the same
--include* flags as the launch (the seven steps use none).

Options:
  --idl FILE            Your Thrift IDL (a local path or gs://...), read as the pipeline reads
                        it with --thriftIdl: no code generator, no build of your classes.
  --struct NAME         The struct of --idl each message holds (FILE.Name when ambiguous).
  --structs A,B,C       Several structs of --idl (a job with several event types): one schema
                        per struct, <table name>.json (Order -> order.json, RefundV2 ->
                        refund_v2.json, the name {struct} becomes in --outputTable), and
                        event_tables.tfvars.json, the Terraform map that creates a table
                        events_<table name> per struct (terraform apply -var-file=...).
                        Name:WEIGHT is accepted (the generator's share) and the weight ignored.
  --union NAME          A union of --idl wrapping the event types: one schema per struct
                        member (narrowed by --structs).
  --idl-include DIRS    Comma-separated directories searched for the IDL's includes.
  --thrift-class NAME   Thrift-generated struct class instead of --idl (default: $EVENT_CLASS).
  --keep-unknown-fields Add the _unknown_fields column, as --keepUnknownFields does.
  --output-dir DIR      Where to write event_table.json (or the per-struct files) and
                        dead_letter_table.json (default: terraform/schemas).
  --include-metadata    Add the Pub/Sub message id, publish time and attributes columns.
  --proto-message NAME  Also write the table's message as NAME's .proto (EventRow ->
                        event_row.proto): the message PROTO_MESSAGE writes, for consumers of the
                        rows (the pipeline needs no generated class); and print the
                        protoc command that compiles it.
  --proto-java-package PKG
                        Java (and proto) package of that message (default: the struct's
                        Java package or IDL namespace + .proto).
  --proto-dir DIR       Where to write the .proto (default: the current directory).
  --primary-key COLS    Change mode: the job's --primaryKey (col[,col], or Struct=col;Struct2=col).
                        Checked against the schema as the launch checks it, and written where
                        Terraform reads it: each event_tables entry's primary_key, or, for one
                        struct, event_table.tfvars.json (event_table_schema_file,
                        event_table_primary_key, event_table_max_staleness) in --output-dir.
                        The other change flags (--changeType, --changeSequence, ...) are checked
                        too when given after --, as the job gives them.
  --max-staleness DUR   Change mode: the job's --maxStaleness (ISO-8601, PT15M), written as
                        BigQuery's INTERVAL literal (0-0 0 0:15:0).
  --skip-build          Use the existing bundled jar.
  --dry-run             Print every command; call nothing.
  -h, --help            Show this help.
EOF2
}

FLAG_SPEC=([--thrift-class]=THRIFT_CLASS [--idl]=IDL [--struct]=STRUCT [--structs]=STRUCTS
  [--union]=UNION [--idl-include]=IDL_INCLUDE [--output-dir]=OUTPUT_DIR
  [--proto-message]=PROTO_MESSAGE [--proto-java-package]=PROTO_PACKAGE [--proto-dir]=PROTO_DIR
  [--primary-key]=PRIMARY_KEY [--max-staleness]=MAX_STALENESS [--skip-build]==SKIP_BUILD
  [--include-metadata]==INCLUDE_METADATA [--keep-unknown-fields]==KEEP_UNKNOWN)
FLAG_REST=EXTRA
THRIFT_CLASS=""
IDL=""
STRUCT=""
STRUCTS=""
UNION=""
IDL_INCLUDE=""
KEEP_UNKNOWN=0
OUTPUT_DIR="$TF_DIR/schemas"
INCLUDE_METADATA=0
PROTO_MESSAGE=""
PROTO_PACKAGE=""
PROTO_DIR="$PWD"
SKIP_BUILD=0
PRIMARY_KEY=""
MAX_STALENESS=""
EXTRA=()
parse_flags "$@"

struct_flags=()
validate_event_types
if [[ -n "$IDL" ]]; then
  [[ -z "$THRIFT_CLASS" ]] || usage_error "give --idl or --thrift-class, not both."
  [[ "$IDL" == gs://* || -f "$IDL" ]] || usage_error "--idl '$IDL' is not a file."
  [[ "$IDL" == gs://* ]] || IDL="$(cd "$(dirname "$IDL")" && pwd)/$(basename "$IDL")"
  struct_args
  struct_flags=("${INGEST_STRUCT_ARGS[@]}")
else
  THRIFT_CLASS="${THRIFT_CLASS:-$EVENT_CLASS}"
  [[ "$THRIFT_CLASS" =~ ^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_$]*)+$ ]] ||
    usage_error "--thrift-class '$THRIFT_CLASS' is not a fully qualified Java class name."
  struct_flags=(--thriftClassName="$THRIFT_CLASS")
fi
[[ -d "$OUTPUT_DIR" ]] || usage_error "--output-dir '$OUTPUT_DIR' is not a directory."
OUTPUT_DIR="$(cd "$OUTPUT_DIR" && pwd)"
proto=()
if [[ -n "$PROTO_MESSAGE" ]] && many_types; then
  usage_error "--proto-message writes the message of one struct: export each struct's .proto with --struct NAME."
fi
if [[ -n "$PROTO_MESSAGE" ]]; then
  [[ "$PROTO_MESSAGE" =~ ^[A-Z][A-Za-z0-9]*$ ]] ||
    usage_error "--proto-message '$PROTO_MESSAGE' must be a CamelCase name, like EventRow."
  [[ -z "$PROTO_PACKAGE" || "$PROTO_PACKAGE" =~ ^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$ ]] ||
    usage_error "--proto-java-package '$PROTO_PACKAGE' is not a Java package name."
  [[ -d "$PROTO_DIR" ]] || usage_error "--proto-dir '$PROTO_DIR' is not a directory."
  PROTO_DIR="$(cd "$PROTO_DIR" && pwd)"
  PROTO_FILE="$PROTO_DIR/$(sed -E 's/([a-z0-9])([A-Z])/\1_\2/g' <<<"$PROTO_MESSAGE" | tr '[:upper:]' '[:lower:]').proto"
  proto=(--protoOutput="$PROTO_FILE" --protoMessageName="$PROTO_MESSAGE")
  [[ -n "$PROTO_PACKAGE" ]] && proto+=(--protoJavaPackage="$PROTO_PACKAGE")
elif [[ -n "$PROTO_PACKAGE" ]]; then
  usage_error "--proto-java-package needs --proto-message."
fi
((DRY_RUN)) || require_command java

if ((SKIP_BUILD)); then
  ((DRY_RUN)) || [[ -f "$INGEST_JAR" ]] || die "$INGEST_JAR is missing: drop --skip-build."
else
  run_in "$REPO_ROOT" "$MVN" -B -q -pl ingestion-pipeline -am package -DskipTests
fi

metadata=()
if ((INCLUDE_METADATA)); then
  metadata=(--includePubsubMessageId=true --includePublishTime=true --includeAttributes=true)
fi
if ((KEEP_UNKNOWN)); then
  metadata+=(--keepUnknownFields=true)
fi
# Change mode: the flags go to the exporter, which checks them as the launch does; the exporter
# flags after -- may give them too (and the other change flags).
change=()
[[ -z "$PRIMARY_KEY" ]] || change+=(--primaryKey="$PRIMARY_KEY")
[[ -z "$MAX_STALENESS" ]] || change+=(--maxStaleness="$MAX_STALENESS")
change_mode=0
for arg in "${change[@]}" "${EXTRA[@]}"; do
  [[ "$arg" == --primaryKey=* || "$arg" == --primaryKey ]] && change_mode=1
done
if many_types; then
  # One file per struct, named by its table name, and the map Terraform creates the tables from
  # (paths relative to terraform/ when the files are under it).
  tf_vars_file="$OUTPUT_DIR/event_tables.tfvars.json"
  run java -cp "$INGEST_JAR" io.thriftbq.ingest.SchemaExporter \
    "${struct_flags[@]}" "${metadata[@]}" \
    --output="$OUTPUT_DIR/{struct}.json" --deadLetterOutput="$OUTPUT_DIR/dead_letter_table.json" \
    --terraformVarsOutput="$tf_vars_file" --terraformDir="$(cd "$TF_DIR" && pwd)" "${change[@]}" "${EXTRA[@]}"
  log "Wrote one schema per struct in $OUTPUT_DIR (<table name>.json), dead_letter_table.json and"
  log "$tf_vars_file. Create the tables with:"
  log "  terraform -chdir=$TF_DIR apply -var-file=$tf_vars_file -var=project_id=..."
  log "and launch with --outputTable=PROJECT:DATASET.events_{struct} (the scripts' default with --structs)."
  if ! ((DRY_RUN)); then
    cat "$tf_vars_file"
  fi
  exit 0
fi
# One table in change mode: its key and staleness go to Terraform's root variables
# (event_table_schema_file, event_table_primary_key, event_table_max_staleness).
key_vars=()
tf_vars_file="$OUTPUT_DIR/event_table.tfvars.json"
if ((change_mode)); then
  key_vars=(--terraformVarsOutput="$tf_vars_file" --terraformDir="$(cd "$TF_DIR" && pwd)")
fi
run java -cp "$INGEST_JAR" io.thriftbq.ingest.SchemaExporter \
  "${struct_flags[@]}" "${metadata[@]}" \
  --output="$OUTPUT_DIR/event_table.json" --deadLetterOutput="$OUTPUT_DIR/dead_letter_table.json" \
  "${proto[@]}" "${key_vars[@]}" "${change[@]}" "${EXTRA[@]}"
log "Wrote $OUTPUT_DIR/event_table.json and $OUTPUT_DIR/dead_letter_table.json."
if ((change_mode)); then
  log "Wrote $tf_vars_file (the table's primary key and max_staleness). Create the table with:"
  log "  terraform -chdir=$TF_DIR apply -var-file=$tf_vars_file -var=project_id=..."
  log "and launch with the same --primaryKey (and --maxStaleness): the launch refuses a table whose key differs."
  if ! ((DRY_RUN)); then
    cat "$tf_vars_file"
  fi
fi
if ! ((DRY_RUN)); then
  log "The event table's schema:"
  cat "$OUTPUT_DIR/event_table.json"
fi
if [[ -n "$PROTO_MESSAGE" ]]; then
  protobuf_version="$(sed -n 's:.*<protobuf.version>\(.*\)</protobuf.version>.*:\1:p' "$REPO_ROOT/pom.xml")"
  log "Wrote $PROTO_FILE. Compile it with protoc $protobuf_version (the protobuf-java version of"
  log "the pipeline; Maven Central: com.google.protobuf:protoc:$protobuf_version:exe:linux-x86_64):"
  log "  protoc --proto_path=$PROTO_DIR --java_out=YOUR_SOURCE_DIR $PROTO_FILE"
fi

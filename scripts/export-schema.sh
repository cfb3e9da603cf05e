#!/usr/bin/env bash
# Export the BigQuery schemas derived from a Thrift struct into the JSON files Terraform reads
# (terraform/schemas/event_table.json and dead_letter_table.json by default).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/common.sh"

usage() {
  cat <<EOF2
Usage: $(basename "$0") [options] [-- EXPORTER_FLAGS...]

Runs io.thriftbq.ingest.schema.SchemaExporter from the bundled ingestion jar. The event table
schema must match what the pipeline derives at run time with the same flags, so pass the same
--include* flags as the launch (the seven steps use none).

Options:
  --thrift-class NAME   Thrift struct class (default: $EVENT_CLASS).
  --output-dir DIR      Where to write event_table.json and dead_letter_table.json
                        (default: terraform/schemas).
  --include-metadata    Add the Pub/Sub message id, publish time and attributes columns.
  --skip-build          Use the existing bundled jar.
  --dry-run             Print every command; call nothing.
  -h, --help            Show this help.
EOF2
}

THRIFT_CLASS="$EVENT_CLASS"
OUTPUT_DIR="$TF_DIR/schemas"
INCLUDE_METADATA=0
SKIP_BUILD=0
EXTRA=()

while [[ $# -gt 0 ]]; do
  case "$1" in
    -h | --help)
      usage
      exit 0
      ;;
    --dry-run) DRY_RUN=1 ;;
    --skip-build) SKIP_BUILD=1 ;;
    --include-metadata) INCLUDE_METADATA=1 ;;
    --thrift-class=* | --output-dir=*)
      set -- "${1%%=*}" "${1#*=}" "${@:2}"
      continue
      ;;
    --thrift-class | --output-dir)
      need_value "$@"
      case "$1" in
        --thrift-class) THRIFT_CLASS="$2" ;;
        --output-dir) OUTPUT_DIR="$2" ;;
      esac
      shift
      ;;
    --)
      shift
      EXTRA+=("$@")
      break
      ;;
    *) usage_error "unknown argument '$1'." ;;
  esac
  shift
done

[[ "$THRIFT_CLASS" =~ ^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_$]*)+$ ]] ||
  usage_error "--thrift-class '$THRIFT_CLASS' is not a fully qualified Java class name."
[[ -d "$OUTPUT_DIR" ]] || usage_error "--output-dir '$OUTPUT_DIR' is not a directory."
OUTPUT_DIR="$(cd "$OUTPUT_DIR" && pwd)"
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
run java -cp "$INGEST_JAR" io.thriftbq.ingest.schema.SchemaExporter \
  --thriftClassName="$THRIFT_CLASS" "${metadata[@]}" \
  --output="$OUTPUT_DIR/event_table.json" --deadLetterOutput="$OUTPUT_DIR/dead_letter_table.json" \
  "${EXTRA[@]}"
log "Wrote $OUTPUT_DIR/event_table.json and $OUTPUT_DIR/dead_letter_table.json."

#!/usr/bin/env bash
# Regenerates the sample's PROTO_MESSAGE classes, or with --check verifies that the checked-in
# Java is what protoc makes of the checked-in .proto files (CI runs the check; a unit test,
# ProtoSchemasTest, checks that the .proto files match the table schema).
#
# protoc comes from Maven Central (com.google.protobuf:protoc) at protobuf.version in pom.xml,
# which pins protobuf-java: generated code and runtime are released together.
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: scripts/regenerate-proto.sh [--check]

Writes ingestion-pipeline/src/main/proto/{event_row,event_row_with_metadata}.proto from the
sample Thrift class (io.thriftbq.sample.Event) and compiles them into
ingestion-pipeline/src/main/proto-gen.
  --check   compile the checked-in .proto files into a temporary directory and fail if the
            checked-in Java differs
USAGE
}

CHECK=false
case "${1:-}" in
  --check) CHECK=true ;;
  -h | --help) usage; exit 0 ;;
  "") ;;
  *) echo "Unknown argument: $1" >&2; usage >&2; exit 2 ;;
esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODULE="$ROOT/ingestion-pipeline"
PROTO_DIR="$MODULE/src/main/proto"
GEN_DIR="$MODULE/src/main/proto-gen"
MVN=("$ROOT/mvnw" -B -q)
[[ "${MAVEN_OFFLINE:-}" == "true" ]] && MVN+=(-o)

version="$(sed -n 's:.*<protobuf.version>\(.*\)</protobuf.version>.*:\1:p' "$ROOT/pom.xml")"
[[ "$version" =~ ^[0-9]+\.[0-9]+(\.[0-9]+)?$ ]] ||
  { echo "pom.xml has no protobuf.version property" >&2; exit 1; }

case "$(uname -m)" in
  x86_64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch_64 ;;
  *) echo "No protoc build on Maven Central for $(uname -m)" >&2; exit 1 ;;
esac
TOOLS="$ROOT/.local-stack/protoc-$version"
PROTOC="$TOOLS/protoc-$version-linux-$arch.exe"
if [[ ! -x "$PROTOC" ]]; then
  mkdir -p "$TOOLS"
  (cd "$ROOT" && "${MVN[@]}" dependency:copy \
    -Dartifact="com.google.protobuf:protoc:$version:exe:linux-$arch" \
    -DoutputDirectory="$TOOLS")
  chmod +x "$PROTOC"
fi

compile() { # $1 = output dir
  mkdir -p "$1"
  (cd "$PROTO_DIR" && "$PROTOC" --java_out="$1" ./*.proto)
}

if $CHECK; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  compile "$tmp"
  if ! diff -r "$tmp" "$GEN_DIR" >/dev/null; then
    echo "ingestion-pipeline/src/main/proto-gen is out of date: run scripts/regenerate-proto.sh" >&2
    diff -r "$tmp" "$GEN_DIR" | head -20 >&2 || true
    exit 1
  fi
  echo "Generated protocol buffer code is current (protoc $version)."
  exit 0
fi

# The .proto files come from the table schema, so they are written by the pipeline's own code.
(cd "$ROOT" && "${MVN[@]}" -pl ingestion-pipeline -am package -DskipTests)
JAR="$MODULE/target/ingestion-pipeline-bundled.jar"
mkdir -p "$PROTO_DIR"
export_proto() { # $1 = message name, $2 = its file (ProtoSchemas.fileName), then --include* flags
  java -cp "$JAR" io.thriftbq.ingest.schema.SchemaExporter \
    --thriftClassName=io.thriftbq.sample.Event --protoJavaPackage=io.thriftbq.sample.proto \
    --protoMessageName="$1" --protoOutput="$PROTO_DIR/$2" "${@:3}"
}
export_proto EventRow event_row.proto
export_proto EventRowWithMetadata event_row_with_metadata.proto \
  --includePubsubMessageId=true --includePublishTime=true --includeAttributes=true
rm -rf "$GEN_DIR"
compile "$GEN_DIR"
echo "Regenerated ingestion-pipeline/src/main/proto and src/main/proto-gen (protoc $version)."

#!/usr/bin/env bash
# Regenerates the checked-in Java classes from the Thrift IDL files, or with --check verifies
# that they are current (CI runs the check). The compiler version must match the libthrift
# version in pom.xml (thrift.version): generated code and runtime are released together.
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: scripts/regenerate-thrift.sh [--check]

Regenerates thrift-common/src/{main,test}/thrift-gen from thrift-common/src/{main,test}/thrift.
  --check   regenerate into a temporary directory and fail if the checked-in code differs
Requires the Apache Thrift compiler at the version pinned in pom.xml (Debian: thrift-compiler).
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
MODULE="$ROOT/thrift-common"

if ! command -v thrift >/dev/null 2>&1; then
  echo "The thrift compiler is not installed: apt-get install thrift-compiler (Debian/Ubuntu)," \
    "or build Apache Thrift at the version in pom.xml." >&2
  exit 1
fi
expected="$(sed -n 's:.*<thrift.version>\(.*\)</thrift.version>.*:\1:p' "$ROOT/pom.xml")"
actual="$(thrift --version | awk '{print $3}')"
if [[ "$expected" != "$actual" ]]; then
  echo "thrift compiler $actual does not match libthrift $expected in pom.xml;" \
    "install compiler $expected or change thrift.version together with the generated code." >&2
  exit 1
fi

generate() { # $1 = main|test, $2 = output dir
  mkdir -p "$2"
  local idl
  for idl in "$MODULE/src/$1/thrift"/*.thrift; do
    thrift --gen java:generated_annotations=suppress -out "$2" "$idl" 2>/dev/null
  done
}

status=0
for scope in main test; do
  if $CHECK; then
    tmp="$(mktemp -d)"
    generate "$scope" "$tmp"
    if ! diff -r "$tmp" "$MODULE/src/$scope/thrift-gen" >/dev/null; then
      echo "thrift-common/src/$scope/thrift-gen is out of date: run scripts/regenerate-thrift.sh" >&2
      diff -r "$tmp" "$MODULE/src/$scope/thrift-gen" | head -20 >&2 || true
      status=1
    fi
    rm -rf "$tmp"
  else
    rm -rf "$MODULE/src/$scope/thrift-gen"
    generate "$scope" "$MODULE/src/$scope/thrift-gen"
    echo "Regenerated thrift-common/src/$scope/thrift-gen"
  fi
done
if $CHECK && ((status == 0)); then
  echo "Generated Thrift code is current."
fi
exit "$status"

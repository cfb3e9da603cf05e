#!/usr/bin/env bash
# Prints the many-types graph-scale table of benchmarks/RESULTS.md: for an IDL of N structs
# (default 1 10 50), the transforms, the launch time (plan + build, then the Dataflow translation)
# and the Dataflow job specification produced offline (DataflowRunner.run with --templateLocation
# and a stager that uploads nothing), per write method, for PROTO_MESSAGE and AVRO_GENERIC_RECORD,
# runner v1 and v2. Runs without network (under `unshare -n` when it can) to show that nothing
# is contacted.
#
#   benchmarks/graph-scale.sh [N ...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# The test classes (GraphScale, ScaleIdl) and the bundled jar (every runtime dependency, the
# Dataflow runner included). Offline: the modules below ingestion-pipeline must be installed.
./mvnw -B -q -o package -DskipTests -Dspotless.check.skip=true -pl ingestion-pipeline
CP="ingestion-pipeline/target/test-classes:ingestion-pipeline/target/ingestion-pipeline-bundled.jar"
export NO_GCE_CHECK=true
RUN=(java -Xmx2g -cp "$CP" io.thriftbq.ingest.scale.GraphScale "$@")
if unshare -n true 2>/dev/null; then
  echo "(no network: running under unshare -n)" >&2
  exec unshare -n "${RUN[@]}"
fi
exec "${RUN[@]}"

# shellcheck shell=bash
# Common setup of the bats tests: stubs of gcloud, terraform, java, mvn and run-local.sh first on
# PATH, each recording its arguments in $STUB_LOG ("NAME<TAB>ARG<TAB>ARG..." per call).

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

# shellcheck disable=SC2034 # used by the .bats files
SCRIPTS="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"

setup() {
  STUBS="$BATS_TEST_DIRNAME/stubs"
  export STUB_LOG="$BATS_TEST_TMPDIR/calls.log"
  : >"$STUB_LOG"
  export PATH="$STUBS:$PATH"
  export MVN="mvn"
  export THRIFTBQ_RUN_LOCAL="$STUBS/run-local.sh"
  export THRIFTBQ_POLL_SECONDS=0
  export THRIFTBQ_INGEST_JAR="$BATS_TEST_TMPDIR/ingestion-pipeline-bundled.jar"
  export THRIFTBQ_DATAGEN_JAR="$BATS_TEST_TMPDIR/datagen-pipeline-bundled.jar"
  touch "$THRIFTBQ_INGEST_JAR" "$THRIFTBQ_DATAGEN_JAR"
  unset GOOGLE_CLOUD_PROJECT STUB_GCLOUD_JOBS STUB_GCLOUD_STATE STUB_JAVA_FAIL STUB_EVENT_SOURCE
  # Run from an unrelated directory: the scripts must work from anywhere.
  cd "$BATS_TEST_TMPDIR" || return 1
}

# calls NAME: the recorded calls of one stub, one per line, arguments separated by tabs.
calls() {
  grep -P "^$1\t" "$STUB_LOG" || true
}

# call_args NAME INDEX: the arguments of the INDEX-th (1-based) call of NAME, one per line.
call_args() {
  calls "$1" | sed -n "${2}p" | tr '\t' '\n' | tail -n +2
}

# java_call_for MAIN_CLASS: the arguments of the java call that runs MAIN_CLASS, one per line.
java_call_for() {
  calls java | grep -P "\t$1(\t|$)" | head -n 1 | tr '\t' '\n' | tail -n +2
}

# step_flags: keep only the flags a tuning step may set.
step_flags() {
  grep -E '^--(bigQueryWriteMethod|formatToStore|numStreamingKeys|storageWriteApiTriggeringFrequencySec|numStorageWriteApiStreams|enableBigQueryAutoshard|useStorageApiConnectionPool|primaryKey|changeType|changeSequence|dataflowServiceOptions)=' | sort
}

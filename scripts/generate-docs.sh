#!/usr/bin/env bash
# Regenerates every copy of a fact whose one source is in code or in the step table:
#   - the flex-template metadata.json of both pipelines (from their options),
#   - the option tables in README.md, docs/INGESTION.md and docs/DATAGEN.md (from the options),
#   - the step tables in docs/TUNING.md and docs/LOCAL.md (from scripts/lib/tuning-steps.tsv),
#   - the sizing model's tables in docs/TUNING.md and benchmarks/RESULTS.md (from
#     benchmarks/sizing/measured.tsv and model.tsv),
#   - the scripts' validation rules, scripts/lib/patterns.generated.sh (from the Java constants),
#   - the definition of CPU per event in docs/LOCAL.md and benchmarks/RESULTS.md (from local mode).
# The tests that check these copies (GeneratedDocsTest, StepTableTest, SizingModelTest,
# ScriptPatternsTest, CpuDefinitionDocsTest) rewrite them instead of failing when
# thriftbq.updateGeneratedFiles=true; this script runs just those tests that way.
# Usage: scripts/generate-docs.sh   (works from any directory; needs JDK 17+)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-}" in
  -h | --help)
    sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  "") ;;
  *)
    echo "ERROR: unexpected argument '$1'." >&2
    exit 2
    ;;
esac
cd "$ROOT"
export NO_GCE_CHECK=true
./mvnw -B -q -ntp test \
  -pl ingestion-pipeline,datagen-pipeline,local-mode -am \
  -Dthriftbq.updateGeneratedFiles=true \
  -Dtest='GeneratedDocsTest,StepTableTest,SizingModelTest,ScriptPatternsTest,CpuDefinitionDocsTest' \
  -Dsurefire.failIfNoSpecifiedTests=false
echo "Generated files are up to date; review them with: git diff"

#!/usr/bin/env bash
# Build the flex template images (Cloud Build) and spec files of the ingestion pipeline and the
# generator, into the Artifact Registry repository and the bucket that Terraform created.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/common.sh"

usage() {
  cat <<EOF2
Usage: $(basename "$0") --project PROJECT [options]

Builds the bundled jars, builds each pipeline's launcher image from its Dockerfile
(<module>/src/main/flex-template/Dockerfile) with Cloud Build from a context folder next to
the jar that holds only the Dockerfile and the jar,, and writes the flex template spec
(<templates_location>/<pipeline>.json) with the module's metadata.json. Needs the Terraform
infrastructure (run a launch script or terraform apply first).

Options:
  --project ID        Google Cloud project (default: \$GOOGLE_CLOUD_PROJECT). Required.
  --region REGION     Region of the repository and of Cloud Build (default: us-central1).
  --pipeline NAME     ingestion, datagen or all (default: all).
  --tag TAG           Image tag (default: the git commit, or a timestamp).
  --skip-build        Use the existing bundled jars.
  --dry-run           Print every command; call nothing.
  -h, --help          Show this help.
EOF2
}

FLAG_SPEC=([--project]=PROJECT [--region]=REGION [--pipeline]=PIPELINE [--tag]=TAG
  [--skip-build]==SKIP_BUILD)
PROJECT="${GOOGLE_CLOUD_PROJECT:-}"
REGION="us-central1"
PIPELINE="all"
TAG=""
SKIP_BUILD=0
parse_flags "$@"

validate_project "$PROJECT"
validate_region "$REGION"
case "$PIPELINE" in
  ingestion) pipelines=(ingestion) ;;
  datagen) pipelines=(datagen) ;;
  all) pipelines=(ingestion datagen) ;;
  *) usage_error "--pipeline must be ingestion, datagen or all, got '$PIPELINE'." ;;
esac
if [[ -z "$TAG" ]]; then
  TAG="$(git -C "$REPO_ROOT" rev-parse --short HEAD 2>/dev/null || date -u +%Y%m%d-%H%M%S)"
fi
[[ "$TAG" =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$ ]] || usage_error "--tag '$TAG' is not a valid image tag."
((DRY_RUN)) || require_command gcloud terraform

((SKIP_BUILD)) || build_jars
check_jars

repository="$(tf_output artifact_repository_url)"
templates="$(tf_output templates_location)"

for p in "${pipelines[@]}"; do
  module="$p-pipeline"
  src="$REPO_ROOT/$module/src/main/flex-template"
  if [[ "$p" == ingestion ]]; then jar="$INGEST_JAR"; else jar="$DATAGEN_JAR"; fi
  context="$(dirname "$jar")/flex-template-context-$p"
  image="$repository/$module:$TAG"
  spec="$templates/$p.json"
  log "Flex template of the $p pipeline: image $image, spec $spec."
  # A small build context: the Dockerfile and the bundled jar only.
  run rm -rf "$context"
  run mkdir -p "$context"
  run cp "$src/Dockerfile" "$jar" "$context/"
  run gcloud builds submit "$context" --project="$PROJECT" --region="$REGION" --tag="$image"
  run gcloud dataflow flex-template build "$spec" --project="$PROJECT" --image="$image" \
    --sdk-language=JAVA --metadata-file="$src/metadata.json"
done
log "Done. Launch with scripts/flex-template-run.sh --project $PROJECT --region $REGION --step N."

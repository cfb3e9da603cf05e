#!/usr/bin/env bash
# Drain (or cancel) the generator and ingestion jobs of a prefix, wait for them to stop with a
# timeout, and optionally destroy the infrastructure.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib/common.sh"

usage() {
  cat <<EOF
Usage: $(basename "$0") --project PROJECT [options]

Drains the active Dataflow jobs named <prefix>-datagen-stepN and <prefix>-ingest-stepN (the
generator first, so no new events arrive), waits until they have stopped, and with --destroy runs
terraform destroy.

Options:
  --project ID          Google Cloud project (default: \$GOOGLE_CLOUD_PROJECT). Required.
  --region REGION       Dataflow region (default: us-central1).
  --prefix PREFIX       Prefix of the job names (default: thriftbq).
  --step N              Stop only the jobs of step N.
  --timeout SECONDS     How long to wait for the jobs to stop (default: 900).
  --cancel              Cancel instead of drain (in-flight data is dropped).
  --cancel-on-timeout   Cancel the jobs still running when the timeout expires.
  --destroy             Then destroy the Terraform infrastructure (tables and bucket included).
  --tfvars FILE         Extra Terraform variables file (as given to the launch script).
  --auto-approve        terraform destroy without asking.
  --dry-run             Print every command; call nothing.
  -h, --help            Show this help.
EOF
}

FLAG_SPEC=([--project]=PROJECT [--region]=REGION [--prefix]=PREFIX [--step]=ONLY_STEP
  [--timeout]=TIMEOUT [--tfvars]=TFVARS [--cancel]==CANCEL [--cancel-on-timeout]==CANCEL_ON_TIMEOUT
  [--destroy]==DESTROY [--auto-approve]==AUTO_APPROVE)
PROJECT="${GOOGLE_CLOUD_PROJECT:-}"
REGION="us-central1"
PREFIX="thriftbq"
ONLY_STEP=""
TIMEOUT=900
CANCEL=0
CANCEL_ON_TIMEOUT=0
DESTROY=0
TFVARS=""
AUTO_APPROVE=0
parse_flags "$@"

validate_project "$PROJECT"
validate_region "$REGION"
validate_prefix "$PREFIX"
validate_positive_int --timeout "$TIMEOUT"
[[ -z "$ONLY_STEP" ]] || validate_step "$ONLY_STEP"
if ((DESTROY)) && [[ -n "$ONLY_STEP" ]]; then
  usage_error "--destroy removes what every step uses: drop --step so all jobs of the prefix stop first."
fi
if [[ -n "$TFVARS" ]]; then
  validate_file --tfvars "$TFVARS"
  TFVARS="$(cd "$(dirname "$TFVARS")" && pwd)/$(basename "$TFVARS")"
fi
((DRY_RUN)) || require_command gcloud
((DRY_RUN || !DESTROY)) || require_command terraform

action="drain"
((CANCEL)) && action="cancel"
log "Project $PROJECT, region $REGION, prefix $PREFIX: ${action} the jobs${ONLY_STEP:+ of step $ONLY_STEP}."

find_active_jobs
# Generator jobs first, so the ingestion jobs see no new events while they drain.
ids=()
names=()
for kind in datagen ingest; do
  while read -r id name; do
    [[ -z "${id:-}" ]] && continue
    [[ "$name" == "$PREFIX-$kind-step"* ]] || continue
    [[ -z "$ONLY_STEP" || "$name" == "$PREFIX-$kind-step$ONLY_STEP" ]] || continue
    ids+=("$id")
    names+=("$name")
  done <<<"$ACTIVE_JOBS"
done

if ((DRY_RUN)); then
  printf '# for each listed job named %s-datagen-step%s then %s-ingest-step%s, with its id:\n' \
    "$PREFIX" "${ONLY_STEP:-N}" "$PREFIX" "${ONLY_STEP:-N}"
  run gcloud dataflow jobs "$action" JOB_ID --project="$PROJECT" --region="$REGION"
  run gcloud dataflow jobs describe JOB_ID --project="$PROJECT" --region="$REGION" --format='value(currentState)'
elif ((${#ids[@]} == 0)); then
  log "No active job of prefix '$PREFIX'${ONLY_STEP:+ and step $ONLY_STEP}."
else
  for i in "${!ids[@]}"; do
    log "${action^} ${names[$i]} (${ids[$i]})."
    run gcloud dataflow jobs "$action" "${ids[$i]}" --project="$PROJECT" --region="$REGION"
  done

  # Wait until every job is in a terminal state, or the timeout.
  deadline=$((SECONDS + TIMEOUT))
  pending=("${!ids[@]}")
  while ((${#pending[@]} > 0)); do
    still=()
    for i in "${pending[@]}"; do
      state="$(gcloud dataflow jobs describe "${ids[$i]}" --project="$PROJECT" --region="$REGION" \
        --format='value(currentState)')" || state="UNKNOWN"
      case "$state" in
        JOB_STATE_DRAINED | JOB_STATE_CANCELLED | JOB_STATE_DONE | JOB_STATE_UPDATED)
          log "${names[$i]} stopped: $state."
          ;;
        JOB_STATE_FAILED)
          warn "${names[$i]} ended as $state."
          ;;
        *) still+=("$i") ;;
      esac
    done
    pending=("${still[@]+"${still[@]}"}")
    ((${#pending[@]} == 0)) && break
    if ((SECONDS >= deadline)); then
      if ((CANCEL_ON_TIMEOUT)); then
        for i in "${pending[@]}"; do
          warn "${names[$i]} did not stop within ${TIMEOUT}s; cancelling it."
          run gcloud dataflow jobs cancel "${ids[$i]}" --project="$PROJECT" --region="$REGION"
        done
        CANCEL_ON_TIMEOUT=0
        deadline=$((SECONDS + TIMEOUT))
        continue
      fi
      for i in "${pending[@]}"; do
        printf '  still running: %s (%s) %s\n' "${names[$i]}" "${ids[$i]}" "$(console_link "${ids[$i]}")" >&2
      done
      die "jobs did not stop within ${TIMEOUT}s; rerun with a longer --timeout or with --cancel-on-timeout."
    fi
    sleep "$POLL_SECONDS"
  done
fi

if ((DESTROY)); then
  log "Destroying the infrastructure of prefix '$PREFIX' (tables, topics, bucket, network)."
  ((AUTO_APPROVE)) || log "terraform destroy asks for confirmation (--auto-approve skips that)."
  tf_destroy
fi
log "Done."

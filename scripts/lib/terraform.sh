# shellcheck shell=bash
# Globals set here are read by the scripts that source common.sh:
# shellcheck disable=SC2034
#
# Terraform: its outputs (printed as placeholders in a dry run), the -var arguments of every call,
# apply and destroy. Sourced by common.sh.

# tf_output NAME: print a Terraform output of the root configuration. In a dry run print the
# command substitution that would produce it, so the printed commands stay exact.
tf_output() {
  if ((DRY_RUN)); then
    # shellcheck disable=SC2016 # the placeholder is printed, not expanded
    printf '$(terraform -chdir=%s output -raw %s)' "$TF_DIR" "$1"
    return 0
  fi
  local value
  value="$(terraform -chdir="$TF_DIR" output -raw "$1")" ||
    die "Terraform output '$1' is missing: run terraform apply first (drop --skip-terraform)."
  [[ -n "$value" ]] || die "Terraform output '$1' is empty."
  printf '%s' "$value"
}

# tf_vars: the -var arguments every terraform call gets (project, region, prefix, tfvars file,
# and last, so that --source decides it over a tfvars file, the route of the events).
tf_vars() {
  TF_VAR_ARGS=(-var="project_id=$PROJECT" -var="region=$REGION" -var="name_prefix=$PREFIX")
  # Many event types: the tables' map (event_tables) SchemaExporter wrote; before --tfvars, so a
  # user's file that sets event_tables replaces it.
  if [[ -n "${EVENT_TABLES_TFVARS:-}" ]]; then
    TF_VAR_ARGS+=(-var-file="$EVENT_TABLES_TFVARS")
  fi
  # Change mode, one table: its key and staleness (event_table_primary_key, ...) SchemaExporter
  # wrote from the job's --primaryKey and --maxStaleness; before --tfvars too.
  if [[ -n "${EVENT_TABLE_TFVARS:-}" ]]; then
    TF_VAR_ARGS+=(-var-file="$EVENT_TABLE_TFVARS")
  fi
  if [[ -n "${TFVARS:-}" ]]; then
    TF_VAR_ARGS+=(-var-file="$TFVARS")
  fi
  if [[ -n "${EVENT_SCHEMA_FILE:-}" ]]; then
    TF_VAR_ARGS+=(-var="event_table_schema_file=$EVENT_SCHEMA_FILE")
  fi
  if [[ -n "${DEAD_LETTER_SCHEMA_FILE:-}" ]]; then
    TF_VAR_ARGS+=(-var="dead_letter_table_schema_file=$DEAD_LETTER_SCHEMA_FILE")
  fi
  TF_VAR_ARGS+=(-var="event_source=${SOURCE:-pubsub}")
}

# tf_run apply|destroy: terraform init, then the command with the variables of tf_vars (without
# asking with --auto-approve).
tf_run() {
  tf_vars
  local approve=()
  ((AUTO_APPROVE)) && approve=(-auto-approve)
  run terraform -chdir="$TF_DIR" init -input=false
  run terraform -chdir="$TF_DIR" "$1" -input=false "${approve[@]}" "${TF_VAR_ARGS[@]}"
}

tf_apply() { tf_run apply; }
tf_destroy() { tf_run destroy; }

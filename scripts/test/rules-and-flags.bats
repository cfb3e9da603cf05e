#!/usr/bin/env bats
# The rules the scripts share with the Java, read from patterns.generated.sh, decide the shared edge
# cases (pattern-cases.tsv, which ScriptPatternsTest runs through Java) as Java does; the launch
# accepts what the pipeline accepts where the old copies were stricter; and every script that
# sources lib/common.sh parses its flags with the one parser.

load test_helper

setup_file() {
  export REPO="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
  export IDL="$REPO/thrift-common/src/main/idl/shop_events.thrift"
}

# bash_accepts RULE VALUE: the scripts' answer to one case of pattern-cases.tsv.
bash_accepts() {
  case "$1" in
    thrift-struct) matches_pattern "$2" "$THRIFT_STRUCT_REGEX" ;;
    thrift-structs) matches_pattern "$2" "$THRIFT_STRUCTS_REGEX" ;;
    table-for-struct-entry) matches_pattern "$2" "$TABLE_FOR_STRUCT_ENTRY_REGEX" ;;
    pubsub-attribute-key) is_attribute_key "$2" ;;
    *) fail "pattern-cases.tsv names the rule '$1', which this test does not know" ;;
  esac
}

@test "bash decides every shared edge case as Java does (pattern-cases.tsv)" {
  source "$SCRIPTS/lib/common.sh"
  local rule expected value times wrong=() cases=0
  while IFS=$'\t' read -r rule expected value times; do
    [[ -z "$rule" || "$rule" == \#* ]] && continue
    if [[ -n "$times" ]]; then
      local repeated=""
      for ((i = 0; i < times; i++)); do repeated+="$value"; done
      value="$repeated"
    fi
    cases=$((cases + 1))
    if bash_accepts "$rule" "$value"; then
      [[ "$expected" == accept ]] || wrong+=("$rule refuse ${value:0:40}")
    else
      [[ "$expected" == refuse ]] || wrong+=("$rule accept ${value:0:40}")
    fi
  done <"$SCRIPTS/test/pattern-cases.tsv"
  ((${#wrong[@]} == 0)) || fail "bash decides otherwise: ${wrong[*]}"
  ((cases > 50)) || fail "only $cases cases read"
}

@test "the UTF-8 locale of the caller does not change the rules (bytes, ASCII ranges)" {
  # (bats' run is not used here: lib/common.sh has a run of its own.)
  source "$SCRIPTS/lib/common.sh"
  local LC_ALL=C.UTF-8 key=""
  for ((i = 0; i < 129; i++)); do key+="é"; done
  ! is_attribute_key "$key" || fail "129 é, 258 bytes, accepted as an attribute key"
  is_attribute_key "${key:0:128}" || fail "128 é, 256 bytes, refused as an attribute key"
  ! matches_pattern "Ärger" "$THRIFT_STRUCT_REGEX" || fail "a non-ASCII struct name accepted"
  matches_pattern "Order=shop.tábla" "$TABLE_FOR_STRUCT_ENTRY_REGEX" || fail "a non-ASCII table refused"
}

@test "a launch takes what the pipeline takes where the old script copies refused it" {
  run "$SCRIPTS/1-streaming-inserts-tablerow.sh" --project stub-project --dry-run --idl "$IDL" \
    --structs "Order , Refund:.5" --struct-attribute 1type \
    --table-for-struct "Order=stub-project.shop.order lines, Refund=my-ds.refunds"
  assert_success
  assert_output --partial "--thriftStructs=Order,Refund --structAttribute=1type"
  assert_output --partial "--thriftStructs=Order,Refund:.5 --structAttribute=1type"
  assert_output --partial "'--tableForStruct=Order=stub-project.shop.order lines, Refund=my-ds.refunds'"
  [[ ! -s "$STUB_LOG" ]] || fail "dry run called: $(cat "$STUB_LOG")"
}

@test "a launch refuses the values near the edges that the pipeline refuses" {
  local s="$SCRIPTS/1-streaming-inserts-tablerow.sh" long
  long="$(printf 'a%.0s' {1..257})"
  run "$s" --project stub-project --idl "$IDL" --structs Order,Refund --struct-attribute "$long"
  assert_failure 2
  assert_output --partial "is not a usable Pub/Sub attribute name (at most 256 bytes; not starting with goog)"
  run "$s" --project stub-project --idl "$IDL" --structs Order,Refund --table-for-struct Order=shop.
  assert_failure 2
  assert_output --partial "entries must be Struct=PROJECT:DATASET.TABLE"
  run "$s" --project stub-project --idl "$IDL" --structs Order,Refund --table-for-struct Order=ds.t=x
  assert_failure 2
  run "$s" --project stub-project --idl "$IDL" --structs "Order:5:6"
  assert_failure 2
  assert_output --partial "--structs must list struct names"
  run "$s" --project stub-project --idl "$IDL" --union "Any.Event."
  assert_failure 2
  assert_output --partial "--union must name one union"
  [[ ! -s "$STUB_LOG" ]] || fail "called: $(cat "$STUB_LOG")"
}

# The flags a launch from the jars and a launch from the flex templates share (launch_flags).
SHARED_VALUE_FLAGS=(--project --region --prefix --source --max-workers --generator-max-workers
  --generator-rate --idl --struct --structs --union --struct-attribute --table-for-struct --idl-include)

@test "the numbered scripts and flex-template-run.sh read the shared launch flags alike" {
  local flag s
  for s in "2-streaming-inserts-512-keys.sh" "flex-template-run.sh --step 2"; do
    read -r -a cmd <<<"$SCRIPTS/$s"
    for flag in "${SHARED_VALUE_FLAGS[@]}"; do
      run "${cmd[@]}" --project stub-project "$flag"
      assert_failure 2
      assert_output --partial "ERROR: $flag needs a value."
      run "${cmd[@]}" --project stub-project "$flag=--x"
      assert_failure 2
      assert_output --partial "ERROR: $flag needs a value."
    done
    # Both spellings of a value, and the checks of launch_flags.
    run "${cmd[@]}" --project=stub-project --max-workers 0
    assert_failure 2
    assert_output --partial "--max-workers must be a positive integer, got '0'."
    run "${cmd[@]}" --project stub-project --region=europe --dry-run
    assert_failure 2
    assert_output --partial "--region 'europe' is not a region"
    run "${cmd[@]}" --project stub-project --source=KAFKA --prefix=pre2 --dry-run \
      --generator-max-workers=3 --region europe-west1
    assert_success
    assert_output --regexp "(--maxNumWorkers|--max-workers)=3"
    assert_output --partial "pre2-datagen-step2"
    assert_output --partial "europe-west1"
  done
  [[ ! -s "$STUB_LOG" ]] || fail "called: $(cat "$STUB_LOG")"
}

@test "each parser keeps its own answer to an argument it does not know" {
  run "$SCRIPTS/2-streaming-inserts-512-keys.sh" --project stub-project --dry-run --skip-build=1
  assert_failure 2
  assert_output --partial "ERROR: unknown option '--skip-build=1'."
  run "$SCRIPTS/2-streaming-inserts-512-keys.sh" --project stub-project --dry-run extra
  assert_failure 2
  assert_output --partial "ERROR: unexpected argument 'extra'."
  run "$SCRIPTS/2-streaming-inserts-512-keys.sh" --project stub-project --dry-run --seedX=1 -- --b=2
  assert_success
  assert_output --partial "--numStreamingKeys=512 --seedX=1 --b=2"
  for s in flex-template-run.sh flex-template-build.sh stop-pipelines.sh export-schema.sh; do
    run "$SCRIPTS/$s" --dry-run --someOption=1
    assert_failure 2
    assert_output --partial "ERROR: unknown argument '--someOption=1'."
    assert_output --partial "Run '$s --help' for usage."
  done
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 2 --dry-run -- --x=1
  assert_failure 2
  assert_output --partial "ERROR: unknown argument '--'."
  run "$SCRIPTS/flex-template-run.sh" --project stub-project --step 2 --parameter=x
  assert_failure 2
  assert_output --partial "--parameter must be NAME=VALUE, got 'x'."
  run "$SCRIPTS/export-schema.sh" --dry-run --skip-build -- --keepUnknownFields=true
  assert_success
  assert_output --partial "--keepUnknownFields=true"
}

@test "every script that sources lib/common.sh parses with parse_flags, not a loop of its own" {
  local f count=0
  while IFS= read -r f; do
    count=$((count + 1))
    ! grep -nE 'while \[\[ \$# -gt 0 \]\]|need_value' "$f" ||
      fail "$f parses its arguments itself: describe its flags in FLAG_SPEC and call parse_flags"
  done < <(grep -l 'lib/common.sh"' "$SCRIPTS"/*.sh "$SCRIPTS"/lib/launch.sh)
  ((count >= 5)) || fail "only $count scripts source lib/common.sh"
  run grep -c 'while \[\[ \$# -gt 0 \]\]' "$SCRIPTS/lib/flags.sh"
  assert_output 1
}

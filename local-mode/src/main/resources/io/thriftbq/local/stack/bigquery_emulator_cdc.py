# BigQuery change data capture (CDC) for the local-bigquery emulator, installed at start by
# bigquery-emulator-launcher.py (copied next to it by io.thriftbq.local.stack.BigQueryEmulator).
# local-bigquery 0.4.0 appends every Storage Write row as it comes and would refuse the
# pseudo-columns as unknown fields; this module models what BigQuery documents in "Stream table
# updates with change data capture" (https://cloud.google.com/bigquery/docs/change-data-capture,
# "the CDC doc" below) and Beam's RowMutationInformation javadoc:
#
# - rows appended to a table's _default stream with a writer schema (proto descriptor) that has a
#   `_CHANGE_TYPE` field are changes, not rows: UPSERT inserts the row or replaces the row with the
#   same primary key, DELETE removes the row with that key (CDC doc, "Specify changes to existing
#   records"); the table's primary key is its tableConstraints.primaryKey;
# - which change of a key wins: the larger `_CHANGE_SEQUENCE_NUMBER` (compare_sequences), and for
#   equal sequence numbers, or without them, the one ingested last (CDC doc, "Manage custom
#   ordering"); a DELETE leaves a tombstone with its sequence number, so an older UPSERT arriving
#   later does not bring the row back (the CDC doc keeps DELETEs "to apply CDC DELETE operations
#   that arrive out of order", "Deleted data considerations"; its window is two days, this model
#   keeps them for the server's life);
# - the changes are applied at once, in the table itself: a delete of the key's rows and the insert
#   of the winning row through the emulator's own write._insert (every check it makes still runs),
#   in one DuckDB transaction, so tabledata.list, jobs.query and the Storage Read API all read the
#   merged table, one row per live key, without the pseudo-columns (which BigQuery does not let a
#   read see either, CDC doc "Limitations"); tables.get's numRows of a table with a primary key
#   is its COUNT(*) (the emulator's own counts inserted rows, not deleted ones);
# - a table's changes are applied one request at a time (a lock per table), and plain appends to a
#   table that has taken changes wait for that lock: DuckLake refuses to commit a delete while
#   another transaction inserted into the same table (other writers' conflicts are retried);
# - refused, as BigQuery refuses them: a _CHANGE_TYPE append to a table without a primary key, to a
#   stream other than _default (CDC doc, "Prerequisites"), a row whose _CHANGE_TYPE is not UPSERT or
#   DELETE (row error "The given value is not a valid CHANGE_TYPE", the CDC doc's text) or whose
#   _CHANGE_SEQUENCE_NUMBER is malformed (row error; BigQuery's text for it is not documented);
#   any row error refuses the whole request, as the emulator does for other row errors;
# - tables.insert/patch/update refuse a primary key that names no top-level column, a RECORD or
#   REPEATED column, a column twice or more than 16 columns (CDC doc "Limitations": at most 16).
#
# Not modelled: max_staleness (stored and returned by tables.get, but every change is applied at
# once, with no background apply job or runtime merge and their cost), the 2,000-column limit, the
# refusal of DML on tables with active CDC, the two-day DELETE retention window, and keeping the
# winners across a restart of the emulator (they live in its memory; after a restart a change
# still replaces the key's row, but is no longer compared with the sequence numbers from before).
# It is a model of BigQuery's documented behaviour, not BigQuery.
#
# Appends without _CHANGE_TYPE take the emulator's path (or the launcher's fast one) unchanged: the
# only cost is one look at the writer schema's field names when a request carries one.
# `python bigquery-emulator-launcher.py --cdc-self-test` runs self_test() below.
import contextlib
import itertools
import json
import re
import sys
import tempfile
import threading
from pathlib import Path

CHANGE_TYPE = "_change_type"
SEQUENCE = "_change_sequence_number"
PSEUDO_COLUMNS = frozenset((CHANGE_TYPE, SEQUENCE))
CHANGE_TYPES = ("UPSERT", "DELETE")
# CDC doc, "_CHANGE_SEQUENCE_NUMBER format": hexadecimal, sections separated by "/", each of at
# most 16 hexadecimal characters, up to four sections, upper or lower case. The same pattern as
# Beam's StorageApiCDC.EXPECTED_SQN_PATTERN.
SEQUENCE_PATTERN = re.compile(r"[0-9A-Fa-f]{1,16}(/[0-9A-Fa-f]{1,16}){0,3}")
MAX_KEY_COLUMNS = 16  # CDC doc, "Prerequisites" and "Limitations"
INVALID_CHANGE_TYPE = "The given value is not a valid CHANGE_TYPE"  # CDC doc, "Limitations"
WRITE_ATTEMPTS = 5


# --- Ordering ---------------------------------------------------------------------------------


def parse_sequence(text):
    """A _CHANGE_SEQUENCE_NUMBER as a tuple of unsigned section values; ValueError if malformed."""
    if not isinstance(text, str) or not SEQUENCE_PATTERN.fullmatch(text):
        raise ValueError(
            f"Invalid _CHANGE_SEQUENCE_NUMBER {text!r}: expected 1 to 4 sections of 1 to 16 "
            "hexadecimal digits separated by '/'"
        )
    return tuple(int(section, 16) for section in text.split("/"))


def compare_sequences(a, b):
    """-1, 0 or 1 as sequence a (a tuple from parse_sequence) is older than, equal to or newer than b.

    The CDC doc ("Manage custom ordering"): BigQuery compares the values "as unsigned numeric
    values", "by comparing the first section, then comparing the next section only if the previous
    sections were equal"; its examples: '7B' > '77', 'FFF/ABC' > 'FFF/B', 'ABC' > 'BA/FFFFFFFF'
    (the first sections decide: 2748 > 186), 'FFF/ABC' > 'ABC'. The doc does not say how a value
    whose sections all equal the first sections of a longer one ('ABC' against 'ABC/0') compares;
    this model takes the one with more sections as the newer (tuple order: the longer has a next
    section to compare where the shorter has none), so no two distinct strings compare equal except
    for case and leading zeros."""
    return (a > b) - (a < b)


class Change:
    """The winning change of a key: its sequence (tuple or None), its ingestion number, and whether
    it deleted the key (a tombstone that older changes cannot undo)."""

    __slots__ = ("sequence", "ingested", "deleted")

    def __init__(self, sequence, ingested, deleted):
        self.sequence = sequence
        self.ingested = ingested
        self.deleted = deleted

    def __repr__(self):
        return f"Change({self.sequence}, {self.ingested}, deleted={self.deleted})"


def wins(new, current):
    """Whether change `new`, ingested after `current` (or None), becomes the key's state.

    Both with sequence numbers: the larger wins, and for equal ones the one ingested later ("If two
    _CHANGE_SEQUENCE_NUMBER values are identical, then the record with the latest BigQuery system
    ingestion time has precedence"). Without them, the one ingested later ("the record most
    recently ingested ... takes precedence"). One with and one without: the CDC doc calls the
    ordering of such a mix "unpredictable"; this model takes ingestion order."""
    if current is None:
        return True
    if new.sequence is not None and current.sequence is not None:
        return compare_sequences(new.sequence, current.sequence) >= 0
    return True


def merge(state, changes, counter):
    """Applies `changes` (key, kind, sequence or None, payload), in order, to `state` (key ->
    Change), without changing it; returns (updates, outcome): the Change each key's state becomes,
    and for each key some change won, ("UPSERT", payload) or ("DELETE", payload) of the last winner.
    `counter` gives ingestion numbers."""
    updates = {}
    outcome = {}
    for key, kind, sequence, payload in changes:
        change = Change(sequence, next(counter), kind == "DELETE")
        current = updates.get(key, state.get(key))
        if wins(change, current):
            updates[key] = change
            outcome[key] = (kind, payload)
    return updates, outcome


# --- Table metadata ---------------------------------------------------------------------------


def _primary_key(resource):
    constraints = resource and resource.tableConstraints
    key = constraints and constraints.primaryKey
    return list((key and key.columns) or [])


def check_primary_key(columns, fields):
    """An error message if `columns` (a primary key) does not fit the table's top-level `fields`."""
    if not columns:
        return None
    if len(columns) > MAX_KEY_COLUMNS:
        return f"A primary key can have at most {MAX_KEY_COLUMNS} columns, not {len(columns)}."
    by_name = {f.name.casefold(): f for f in fields or []}
    seen = set()
    for column in columns:
        folded = str(column).casefold()
        if folded in seen:
            return f"Column {column} appears more than once in the primary key."
        seen.add(folded)
        field = by_name.get(folded)
        if field is None:
            return (
                f"Primary key column {column} is not a top-level column of the table"
                + (" (nested fields cannot be keys)." if "." in str(column) else ".")
            )
        if field.mode == "REPEATED" or field.type in ("RECORD", "STRUCT"):
            return f"Primary key column {column} cannot be a REPEATED or RECORD column."
    return None


# --- Installation -----------------------------------------------------------------------------


class _CdcRows(list):
    """Decoded rows of a request whose writer schema has _CHANGE_TYPE."""

    __slots__ = ()


def _is_cdc_schema(descriptor_proto):
    return any(field.name.casefold() == CHANGE_TYPE for field in descriptor_proto.field)


def cdc_decoder(inner):
    """write._decoder that marks the rows of a writer schema with _CHANGE_TYPE (as _CdcRows) and
    gives every other request `inner`'s decoding as it is."""

    def decoder(request):
        decode = inner(request)
        if decode is None or "arrow_rows" in request:
            return decode  # Arrow rows: not CDC (the doc: protobuf only), unknown fields as before
        if not _is_cdc_schema(request.proto_rows.writer_schema.proto_descriptor):
            return decode
        return lambda request, fields: _CdcRows(decode(request, fields))

    return decoder


def install(write):
    """Puts CDC into local_bigquery.grpc.write (whichever _decoder and _insert it has now: the
    emulator's own or the launcher's fast ones, so install after them) and catalog.tables."""
    import duckdb
    import grpc
    from google.cloud.bigquery_storage_v1 import types

    from local_bigquery.catalog import metadata, tabledata, tables
    from local_bigquery.engine import database
    from local_bigquery.errors import BigQueryError
    from local_bigquery.models import Table

    inner_append = write._append
    own_cursor = database.cursor
    held = threading.local()
    states = {}  # (project, dataset, table, creationTime) -> {key: Change}
    locks = {}  # (project, dataset, table) -> the lock of a table that had changes appended
    locks_lock = threading.Lock()
    counter = itertools.count()

    # --- the write side ---

    def append(stream, rows, offset):
        if type(rows) is not _CdcRows:
            project_id, dataset_id, table_id = stream.table
            lock = locks.get((project_id, dataset_id, table_id.casefold())) if locks else None
            if lock is None:
                return inner_append(stream, rows, offset)
            # DuckLake refuses to commit a delete while another transaction inserted into the same
            # table: plain appends to a table that takes changes wait for its changes.
            with lock:
                return inner_append(stream, rows, offset)
        response = types.AppendRowsResponse(write_stream=stream.name)
        if not stream.name.endswith("/streams/_default"):
            return _failed(
                response,
                f"_CHANGE_TYPE (change data capture) is only supported on the _default stream, "
                f"not on {stream.name}",
            )
        if offset is not None and offset != stream.count:
            # _default streams take no offsets in BigQuery; the emulator's own checks, kept
            return inner_append(stream, rows, offset)
        try:
            failure = _apply(stream.table, rows, lambda good: write._insert(stream, good))
        except BigQueryError as error:
            return _failed(response, error.message)
        if isinstance(failure, str):
            return _failed(response, failure)
        if failure:
            response.error = _status(grpc.StatusCode.INVALID_ARGUMENT, "Rows are invalid")
            response.row_errors = [
                types.RowError(
                    index=index, code=types.RowError.RowErrorCode.FIELDS_ERROR, message=message
                )
                for index, message in sorted(failure.items())
            ]
            return response
        response.append_result = types.AppendRowsResponse.AppendResult()
        stream.count += len(rows)
        return response

    def _status(code, message):
        from google.rpc import status_pb2

        return status_pb2.Status(code=code.value[0], message=message)

    def _failed(response, message):
        response.error = _status(grpc.StatusCode.INVALID_ARGUMENT, message)
        return response

    # --- applying a request's changes ---

    def _apply(reference, rows, insert):
        """Applies the changes in `rows` to table `reference`; returns None when done, a message
        when the request is refused as a whole, or {row index: message} for row errors (nothing
        applied)."""
        project_id, dataset_id, table_id = reference
        resource = metadata.load(Table, project_id, dataset_id, table_id)
        key_columns = _primary_key(resource)
        label = f"{project_id}:{dataset_id}.{table_id}"
        if not key_columns:
            return (
                f"Table {label} has no primary key; rows with _CHANGE_TYPE (change data capture) "
                "need one (tableConstraints.primaryKey)"
            )
        folded_key = [column.casefold() for column in key_columns]
        errors = {}
        changes = []
        for index, row in enumerate(rows):
            names = {name.casefold(): name for name in row}
            kind = row.get(names.get(CHANGE_TYPE))
            if kind not in CHANGE_TYPES:
                errors[index] = f"{INVALID_CHANGE_TYPE}: {kind!r}"
                continue
            sequence = row.get(names.get(SEQUENCE))
            if sequence is not None and sequence != "":
                try:
                    sequence = parse_sequence(sequence)
                except ValueError as reason:
                    errors[index] = str(reason)
                    continue
            else:
                sequence = None
            data = {name: value for name, value in row.items() if name.casefold() not in PSEUDO_COLUMNS}
            key = tuple(_key_value(row.get(names.get(column))) for column in folded_key)
            changes.append((key, kind, sequence, (index, data)))
        if errors:
            return errors
        state_key = (
            project_id,
            dataset_id,
            table_id.casefold(),
            resource.creationTime if resource else None,
        )
        with locks_lock:
            lock = locks.setdefault(state_key[:3], threading.Lock())
        with lock:
            state = states.setdefault(state_key, {})
            updates, outcome = merge(state, changes, counter)
            upserts = [payload for kind, payload in outcome.values() if kind == "UPSERT"]
            winners = {id(payload) for payload in upserts}
            losers = [
                payload for key, kind, _, payload in changes
                if kind == "UPSERT" and id(payload) not in winners
            ]
            if losers:
                # Rows that lose are not inserted, but BigQuery refuses a request holding an
                # invalid row all the same: the emulator's checks run on every UPSERT row, with one
                # row no table can take appended so that nothing is inserted (insert_all inserts
                # none of a request's rows when one is invalid).
                every = [payload for _, kind, _, payload in changes if kind == "UPSERT"]
                found = _row_errors(insert, every, probe=True)
                if found:
                    return found
            if outcome:
                failure = _write(reference, key_columns, outcome, upserts, insert)
                if failure:
                    return failure
            state.update(updates)
        return None

    def _row_errors(insert, payloads, probe=False):
        rows = [data for _, data in payloads]
        if probe:
            rows.append({"_thriftbq_cdc_probe_": None})
        errors = {}
        for error in insert(rows):
            if error["index"] < len(payloads):
                errors[payloads[error["index"]][0]] = error["errors"][0]["message"]
        return errors

    def _write(reference, key_columns, outcome, upserts, insert):
        """Deletes the rows of every key some change won, and inserts the winning UPSERT rows with
        the emulator's own insert, in one transaction; again when DuckLake refuses the commit for a
        conflict with another writer of the table (a REST insertAll, a query job)."""
        for attempt in itertools.count(1):
            try:
                return _write_once(reference, key_columns, outcome, upserts, insert)
            except duckdb.TransactionException:
                if attempt >= WRITE_ATTEMPTS:
                    raise

    def _write_once(reference, key_columns, outcome, upserts, insert):
        table = tables.name(*reference)
        with own_cursor() as cur:
            cur.execute("BEGIN TRANSACTION")
            held.cursor = cur
            try:
                relation = cur.sql(f"SELECT * FROM {table} LIMIT 0")
                schema = {c.casefold(): (c, t) for c, t in zip(relation.columns, relation.types)}
                _delete_keys(cur, table, schema, key_columns, outcome)
                errors = _row_errors(insert, upserts) if upserts else {}
                cur.execute("ROLLBACK" if errors else "COMMIT")
                return errors
            except BaseException:
                with contextlib.suppress(duckdb.Error):
                    cur.execute("ROLLBACK")  # none open any more after a refused COMMIT
                raise
            finally:
                held.cursor = None

    def _delete_keys(cur, table, schema, key_columns, outcome):
        columns = [schema[column.casefold()] for column in key_columns]
        quoted = [(database.quote(name), t) for name, t in columns]
        spec = json.dumps(
            [f"STRUCT({', '.join(f'{c} {tabledata._spec_type(t)}' for c, t in quoted)})"]
        )
        condition = " AND ".join(
            f"{table}.{c} IS NOT DISTINCT FROM {tabledata._select(c, t)}" for c, t in quoted
        )
        keys = [
            {name: value for (name, _), value in zip(columns, _key_payload(key))}
            for key in outcome
        ]
        cur.execute(
            f"DELETE FROM {table} WHERE EXISTS (SELECT 1 FROM "
            f"(SELECT unnest(from_json($payload, $spec)) AS r) WHERE {condition})",
            {"payload": json.dumps(keys), "spec": spec},
        )

    @contextlib.contextmanager
    def cursor():
        # Inside _write, every cursor the emulator's insert asks for on this thread is the one of
        # the open transaction; everywhere else, the emulator's own cursor.
        cur = getattr(held, "cursor", None)
        if cur is not None:
            yield cur
            return
        with own_cursor() as cur:
            yield cur

    # --- the catalog side ---

    own_create = tables.create
    own_update = tables.update
    own_load = tables.load

    def _check(body, fields):
        columns = _primary_key(body)
        if columns and (message := check_primary_key(columns, fields)):
            raise BigQueryError("invalid", message)

    def create(project_id, dataset_id, body, translate):
        _check(body, tables.fields(body))
        return own_create(project_id, dataset_id, body, translate)

    def update(project_id, dataset_id, table_id, body, etag, replace):
        if _primary_key(body):
            fields = tables.fields(body) or tables.columns(project_id, dataset_id, table_id)
            _check(body, fields)
        return own_update(project_id, dataset_id, table_id, body, etag, replace)

    def load(project_id, dataset_id, table_id):
        # The emulator's numRows is its catalog's record count, which counts inserted rows and not
        # deleted ones; a table with a primary key (the only kind CDC deletes from) is counted.
        resource = own_load(project_id, dataset_id, table_id)
        if not _primary_key(resource) or resource.type != "TABLE" or not tables.fields(resource):
            return resource
        try:
            ((count,),) = database.fetch(
                f"SELECT COUNT(*) FROM {tables.name(project_id, dataset_id, table_id)}"
            )
        except duckdb.Error:
            return resource
        size = str(tables.logical_bytes(count, len(tables.fields(resource))))
        return resource.replace(
            numRows=str(count),
            numBytes=size,
            numTotalLogicalBytes=size,
            numActiveLogicalBytes=size,
        )

    write._decoder = cdc_decoder(write._decoder)
    write._append = append
    database.cursor = cursor
    tables.create = create
    tables.update = update
    tables.load = load
    return states


def _key_value(value):
    """A primary key value as a hashable: the decoded JSON value (int64 as a string already)."""
    if isinstance(value, (dict, list)):
        return ("json", json.dumps(value, sort_keys=True))
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value


def _key_payload(key):
    return [json.loads(v[1]) if isinstance(v, tuple) else v for v in key]


# --- Self-test --------------------------------------------------------------------------------


def self_test(launcher, args):
    """Ordering, merge rules and the emulator end to end (in process, both append paths)."""
    failures = []

    def check(what, got, expected):
        if got != expected:
            failures.append(f"{what}: got {got!r}, expected {expected!r}")

    _test_ordering(check)
    _test_merge(check)
    checked = _test_emulator(launcher, check)
    if failures:
        print("\n".join(failures))
        print(f"cdc self-test FAILED: {len(failures)} of the checks")
        return 1
    print(f"cdc self-test OK: ordering, merge rules, and {checked} emulator checks on both paths")
    return 0


def _newer(a, b):
    return compare_sequences(parse_sequence(a), parse_sequence(b)) > 0


def _test_ordering(check):
    # The CDC doc's examples ("Manage custom ordering"), record #2 against record #1.
    check("doc example 1: '7B' > '77'", _newer("7B", "77"), True)
    check("doc example 2: 'FFF/ABC' > 'FFF/B'", _newer("FFF/ABC", "FFF/B"), True)
    check("doc example 3: 'ABC' > 'BA/FFFFFFFF'", _newer("ABC", "BA/FFFFFFFF"), True)
    check("doc example 4: 'FFF/ABC' > 'ABC'", _newer("FFF/ABC", "ABC"), True)
    # Beam's RowMutationInformation.of(MutationType, String) javadoc table.
    check("Beam: 'ABC' > 'B'", _newer("ABC", "B"), True)
    check("Beam: 'B' is not newer than 'ABC'", _newer("B", "ABC"), False)
    check("Beam: 'FFF/ABC' > 'FFF/B'", _newer("FFF/ABC", "FFF/B"), True)
    check("Beam: 'ABC' > 'BA/FFFFFFFF'", _newer("ABC", "BA/FFFFFFFF"), True)
    check("Beam: 'FFF/ABC' > 'ABC'", _newer("FFF/ABC", "ABC"), True)
    check(
        "Beam: 'FFF' = 'FFF'",
        compare_sequences(parse_sequence("FFF"), parse_sequence("FFF")),
        0,
    )
    # Case and leading zeros do not matter: values are compared as unsigned numbers.
    check("'abc' = 'ABC'", compare_sequences(parse_sequence("abc"), parse_sequence("ABC")), 0)
    check("'00A' = 'a'", compare_sequences(parse_sequence("00A"), parse_sequence("a")), 0)
    # Unsigned 64-bit sections: 'FFFFFFFFFFFFFFFF' is the largest, not -1.
    check("'FFFFFFFFFFFFFFFF' > '0'", _newer("FFFFFFFFFFFFFFFF", "0"), True)
    check("'FFFFFFFFFFFFFFFF' > '7FFFFFFFFFFFFFFF'", _newer("F" * 16, "7" + "F" * 15), True)
    check("'FFFFFFFFFFFFFFFF' > '1/0' (first sections decide)", _newer("F" * 16, "1/0"), True)
    # Not in the doc: a value that is a prefix of a longer one is the older (see compare_sequences).
    check("'ABC/0' > 'ABC' (model's choice)", _newer("ABC/0", "ABC"), True)
    valid = ["0", "0/0/0/0", "f", "18F2EBB6480", "F" * 16 + ("/" + "F" * 16) * 3, "aB/Cd"]
    invalid = ["", "g", "/", "1/", "/1", "1//2", "0/0/0/0/0", "F" * 17, "-1", " 1", "1 ", "0x1", "1.5", None, 7]
    for text in valid:
        try:
            parse_sequence(text)
        except ValueError:
            check(f"{text!r} is a valid sequence", False, True)
    for text in invalid:
        try:
            parse_sequence(text)
            check(f"{text!r} is refused", False, True)
        except ValueError:
            pass


def _test_concurrent(variant, create, append, plain_append, contents, up, delete, check):
    """Threads appending changes with distinct sequence numbers to two tables at once, and plain
    rows (other keys) to one of them: whatever the interleaving, each key ends as its change with
    the largest sequence number says, and every plain row is there."""
    import random

    rng = random.Random(11)
    paths = [create(f"concurrent_{variant}_{i}") for i in range(2)]
    batches = {path: [[] for _ in range(6)] for path in paths}
    expected = {path: {} for path in paths}
    sequences = rng.sample(range(1, 10_000), 2 * 6 * 40)
    for path in paths:
        for batch in batches[path]:
            for _ in range(40):
                key, seq = rng.randrange(25), sequences.pop()
                change = delete(key, f"{seq:x}") if rng.random() < 0.3 else up(key, f"v{seq}", seq, f"{seq:x}")
                batch.append(change)
                if seq > expected[path].get(key, (0,))[0]:
                    expected[path][key] = (seq, change)
    errors = []

    def run(path, batch):
        try:
            result = append(path, batch)
            if result.error.code or result.row_errors:
                errors.append(str(result))
        except Exception as error:  # noqa: BLE001 - reported as a failure
            errors.append(repr(error))

    def plain(path, start):
        for i in range(start, start + 30, 3):
            rows = [{"id": 1000 + j, "name": f"p{j}", "salary": j} for j in range(i, i + 3)]
            result = plain_append(path, rows)
            if result.error.code or result.row_errors:
                errors.append(str(result))
        for j in range(start, start + 30):
            expected[path][1000 + j] = (0, {"_CHANGE_TYPE": "UPSERT", "name": f"p{j}", "salary": j})

    threads = [threading.Thread(target=run, args=(path, batch)) for path in paths for batch in batches[path]]
    threads += [threading.Thread(target=plain, args=(paths[0], start)) for start in (0, 30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    check(f"{variant}: concurrent appends answered", errors, [])
    for path in paths:
        want = sorted(
            (key, change["name"], change["salary"])
            for key, (_, change) in expected[path].items()
            if change["_CHANGE_TYPE"] == "UPSERT"
        )
        check(f"{variant}: concurrent appends merged ({path})", contents(path), want)
    return 1 + len(paths)


def _final(state):
    return {key: ("DELETE" if c.deleted else "UPSERT", c.sequence) for key, c in state.items()}


def _run(state, changes):
    counter = itertools.count()
    parsed = [
        (key, kind, None if seq is None else parse_sequence(seq), payload)
        for key, kind, seq, payload in changes
    ]
    updates, outcome = merge(state, parsed, counter)
    state.update(updates)
    return outcome


def _test_merge(check):
    # Without sequence numbers, the change ingested last wins, whatever its kind.
    state = {}
    outcome = _run(state, [(1, "UPSERT", None, "a"), (1, "UPSERT", None, "b"), (2, "UPSERT", None, "c"),
                           (2, "DELETE", None, "d"), (3, "DELETE", None, "e"), (3, "UPSERT", None, "f")])
    check("no sequence: last wins", outcome, {1: ("UPSERT", "b"), 2: ("DELETE", "d"), 3: ("UPSERT", "f")})
    # Out-of-order sequences: the larger wins whatever the arrival order; equal: the later.
    state = {}
    _run(state, [(1, "UPSERT", "5", "a")])
    check("older sequence loses", _run(state, [(1, "UPSERT", "3", "b")]), {})
    check("equal sequence, later wins", _run(state, [(1, "UPSERT", "5", "c")]), {1: ("UPSERT", "c")})
    check("newer wins", _run(state, [(1, "UPSERT", "A", "d")]), {1: ("UPSERT", "d")})
    # A DELETE is a tombstone: an older UPSERT arriving afterwards does not bring the key back.
    state = {}
    _run(state, [(7, "UPSERT", "1", "a"), (7, "DELETE", "5", "b")])
    check("older upsert after a delete", _run(state, [(7, "UPSERT", "3", "c")]), {})
    check("tombstone kept", _final(state), {7: ("DELETE", (5,))})
    check("newer upsert after a delete", _run(state, [(7, "UPSERT", "6", "d")]), {7: ("UPSERT", "d")})
    # Within one request, the same rules, in order.
    state = {}
    outcome = _run(state, [(1, "UPSERT", "2", "a"), (1, "UPSERT", "1", "b"), (1, "DELETE", "2", "c"),
                           (1, "UPSERT", "2/0", "d"), (1, "UPSERT", "2", "e")])
    check("one request", outcome, {1: ("UPSERT", "d")})
    # A mix with and without sequence numbers ("unpredictable" in the doc): ingestion order here.
    state = {}
    _run(state, [(1, "UPSERT", "FF", "a")])
    check("mixed: no sequence, later", _run(state, [(1, "UPSERT", None, "b")]), {1: ("UPSERT", "b")})
    check("mixed: sequence after none", _run(state, [(1, "UPSERT", "1", "c")]), {1: ("UPSERT", "c")})


def _test_emulator(launcher, check):
    """The emulator in process: tables with primary keys, CDC appends on both append paths."""
    data = Path(tempfile.mkdtemp(prefix="cdc-selftest-"))
    from local_bigquery.settings import settings

    settings.data_dir = data
    settings.default_project_id = "p"
    settings.default_dataset_id = "d"
    from google.cloud.bigquery_storage_v1 import types
    from google.protobuf import descriptor_pb2

    from local_bigquery.catalog import tabledata, tables
    from local_bigquery.engine import database
    from local_bigquery.errors import BigQueryError
    from local_bigquery.grpc import write
    from local_bigquery.models import Table

    launcher.install_kept_message_classes()
    own = (write._decoder, write._insert)
    fast = launcher._build_fast_append(write, tabledata)
    write._decoder, write._insert = fast
    install(write)  # the CDC layer; the self-test sets write._decoder and _insert for each path
    checked = 0

    F = descriptor_pb2.FieldDescriptorProto
    row = descriptor_pb2.DescriptorProto(name="Employee")
    for number, (name, kind) in enumerate(
        [("id", F.TYPE_INT64), ("name", F.TYPE_STRING), ("salary", F.TYPE_INT64),
         ("_CHANGE_TYPE", F.TYPE_STRING), ("_CHANGE_SEQUENCE_NUMBER", F.TYPE_STRING)],
        start=1,
    ):
        row.field.add(name=name, number=number, type=kind, label=F.LABEL_OPTIONAL)
    plain = descriptor_pb2.DescriptorProto()
    plain.CopyFrom(row)
    del plain.field[3:]
    plain.name = "Plain"
    message = write._message_class(row)
    plain_message = write._message_class(plain)
    schema = [
        {"name": "id", "type": "INT64", "mode": "REQUIRED"},
        {"name": "name", "type": "STRING", "mode": "REQUIRED"},
        {"name": "salary", "type": "INT64"},
    ]

    def create(name, key=("id",), staleness=None, fields=schema):
        body = {"tableReference": {"tableId": name}, "schema": {"fields": fields}}
        if key:
            body["tableConstraints"] = {"primaryKey": {"columns": list(key)}}
        if staleness:
            body["maxStaleness"] = staleness
        tables.create("p", "d", Table.model_validate(body), translate=None)
        return f"projects/p/datasets/d/tables/{name}"

    def rows(changes, descriptor_message=message):
        out = []
        for change in changes:
            m = descriptor_message()
            for field, value in change.items():
                setattr(m, field, value)
            out.append(m.SerializeToString())
        return out

    def append(path, changes, stream=None, descriptor=row, descriptor_message=message):
        body = {
            "write_stream": stream or f"{path}/streams/_default",
            "proto_rows": {
                "rows": {"serialized_rows": rows(changes, descriptor_message)},
                "writer_schema": {"proto_descriptor": descriptor},
            },
        }
        return list(write.append(iter([types.AppendRowsRequest(body)])))[0]

    def contents(path):
        name = tables.name(*write.table(path))
        return sorted(database.fetch(f"SELECT id, name, salary FROM {name}"))

    def up(i, name, salary, seq=None):
        change = {"id": i, "name": name, "salary": salary, "_CHANGE_TYPE": "UPSERT"}
        if seq is not None:
            change["_CHANGE_SEQUENCE_NUMBER"] = seq
        return change

    def delete(i, seq=None):
        change = {"id": i, "_CHANGE_TYPE": "DELETE"}
        if seq is not None:
            change["_CHANGE_SEQUENCE_NUMBER"] = seq
        return change

    for variant, (decoder, insert) in (("own", own), ("fast", fast)):
        # the CDC decoder wraps the one it found at install; the insert is looked up at each append
        write._decoder, write._insert = cdc_decoder(decoder), insert
        t = create(f"employees_{variant}", staleness="0-0 0 0:5:0")
        # The CDC doc's example: a table of three, then DELETE 100, UPSERT 101, UPSERT 105.
        tabledata_rows = [
            {"id": 100, "name": "Charlie", "salary": 2000},
            {"id": 101, "name": "Tal", "salary": 3000},
            {"id": 102, "name": "Lee", "salary": 5000},
        ]
        result = append(t, tabledata_rows, descriptor=plain, descriptor_message=plain_message)
        check(f"{variant}: plain append", result.row_errors, [])
        result = append(t, [delete(100), up(101, "Tal", 8000), up(105, "Izumi", 6000)])
        check(f"{variant}: doc example answer", (result.error.code, list(result.row_errors)), (0, []))
        check(
            f"{variant}: doc example",
            contents(t),
            [(101, "Tal", 8000), (102, "Lee", 5000), (105, "Izumi", 6000)],
        )
        # Duplicates, out-of-order sequences, a delete, and an older upsert after it.
        append(t, [up(1, "a", 1, "5"), up(1, "a-dup", 1, "5"), up(2, "b", 2, "10"), up(3, "c", 3, "1")])
        append(t, [up(1, "a-old", 0, "4"), up(2, "b-new", 20, "10/1"), delete(3, "2")])
        # (2: "10/1" won, "F" = 15 loses to it, then "11" deletes, "10/2" is older than "11")
        append(t, [up(3, "c-old", 30, "1/FFFF"), delete(2, "F"), delete(2, "11")])
        append(t, [up(2, "b-older", 0, "10/2")])
        check(
            f"{variant}: merged",
            contents(t),
            [(1, "a-dup", 1), (101, "Tal", 8000), (102, "Lee", 5000), (105, "Izumi", 6000)],
        )
        # Row errors refuse the request: nothing of it is applied.
        before = contents(t)
        result = append(t, [up(1, "x", 1, "FF"), {"id": 9, "_CHANGE_TYPE": "INSERT"}])
        check(f"{variant}: bad change type", [(e.index, e.message[:42]) for e in result.row_errors],
              [(1, INVALID_CHANGE_TYPE)])
        result = append(t, [up(1, "x", 1, "FF"), up(8, "y", 1, "12345678901234567")])
        check(f"{variant}: bad sequence", [e.index for e in result.row_errors], [1])
        # a row that loses to a newer one of its key, and has no name (a REQUIRED column)
        loser = {"id": 1, "_CHANGE_TYPE": "UPSERT", "_CHANGE_SEQUENCE_NUMBER": "1"}
        result = append(t, [up(1, "x", 1, "FF"), loser, up(4, "d", 4)])
        check(f"{variant}: invalid losing row refused",
              [(e.index, e.message) for e in result.row_errors], [(1, "Missing required field: name.")])
        # (key 101 exists: its delete is rolled back with the refused insert)
        result = append(t, [up(4, "d", 4), {"id": 101, "_CHANGE_TYPE": "UPSERT"}])
        check(f"{variant}: invalid winning row refused",
              [(e.index, e.message) for e in result.row_errors], [(1, "Missing required field: name.")])
        check(f"{variant}: refused requests change nothing", contents(t), before)
        # A table without a primary key, and a stream other than _default.
        no_key = create(f"no_key_{variant}", key=None)
        result = append(no_key, [up(1, "a", 1)])
        check(f"{variant}: no primary key", "no primary key" in result.error.message, True)
        committed = write.create(types.CreateWriteStreamRequest(
            parent=t, write_stream=types.WriteStream(type_=types.WriteStream.Type.COMMITTED)))
        result = append(t, [up(50, "z", 1)], stream=committed.name)
        check(f"{variant}: only _default", "_default" in result.error.message, True)
        check(f"{variant}: nothing written by refused appends", contents(t), before)
        checked += 12
        # tables.get keeps the primary key and max staleness as they were created.
        got = tables.get("p", "d", f"employees_{variant}")
        check(f"{variant}: tables.get primary key", got.tableConstraints.primaryKey.columns, ["id"])
        check(f"{variant}: tables.get maxStaleness", got.maxStaleness, "0-0 0 0:5:0")
        check(f"{variant}: tables.get numRows", got.numRows, str(len(before)))
        # Reads see no pseudo-columns.
        check(f"{variant}: columns", [f.name for f in tables.columns("p", "d", f"employees_{variant}")],
              ["id", "name", "salary"])
        checked += 3
        plain_append = lambda path, rows: append(  # noqa: E731
            path, rows, descriptor=plain, descriptor_message=plain_message
        )
        checked += _test_concurrent(variant, create, append, plain_append, contents, up, delete, check)
    # Primary keys BigQuery would not take.
    nested = schema + [{"name": "rec", "type": "RECORD", "fields": [{"name": "a", "type": "STRING"}]}]
    for key, why in ((["rec.a"], "nested"), (["rec"], "record"), (["nope"], "missing"),
                     (["id", "ID"], "twice"), ([f"c{i}" for i in range(17)], "17 columns")):
        fields = nested + [{"name": f"c{i}", "type": "STRING"} for i in range(17)]
        try:
            create(f"bad_key_{len(key)}_{why.replace(' ', '_')}", key=key, fields=fields)
            check(f"primary key {why} refused", False, True)
        except BigQueryError:
            pass
        checked += 1
    write._decoder, write._insert = own
    return checked


if __name__ == "__main__":
    sys.exit("run through bigquery-emulator-launcher.py --cdc-self-test")

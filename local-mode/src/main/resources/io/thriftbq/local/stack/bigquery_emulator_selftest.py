# The launcher's fast append path against the emulator's own, in one process, on random rows:
# `python bigquery-emulator-launcher.py --self-test [BATCHES] [SEED]` (run by
# io.thriftbq.local.stack.FastAppendEquivalenceTest). Every batch is appended twice through
# local_bigquery.grpc.write.append, once with the emulator's own _decoder and _insert and once with
# the launcher's (its decoder and insert, and its grouped append joining the requests queued on a
# _default connection), each into its own table of the same schema; the responses (offsets, errors,
# row_errors) must be equal, and so must everything the tables hold at the end. The rows cover the
# BigQuery types the pipeline writes and more (INT64, FLOAT64, BOOL, STRING, BYTES, TIMESTAMP, DATE,
# NUMERIC, JSON, RECORD, REPEATED), fields the table does not have, shapes that disagree with the
# table, values a column refuses (strings and numbers bound for columns of other types included,
# for the fast path's narrowed cast check), timestamps out of Python's range, and COMMITTED, PENDING and
# BUFFERED streams besides _default. Prints "self-test OK" and returns 0 when all is equal.
import random
import re
import sys
import tempfile
from pathlib import Path

SIGNED_ZERO = re.compile(r"(?<![\w.])-0\.0(?![\d])")

SCHEMA = [
    {"name": "seq", "type": "INT64", "mode": "REQUIRED"},
    {"name": "s", "type": "STRING"},
    {"name": "b", "type": "BYTES"},
    {"name": "flag", "type": "BOOL"},
    {"name": "d", "type": "FLOAT64"},
    {"name": "f", "type": "FLOAT64"},
    {"name": "i32", "type": "INT64"},
    {"name": "ts", "type": "TIMESTAMP"},
    {"name": "ts_s", "type": "TIMESTAMP"},
    {"name": "day", "type": "DATE"},
    {"name": "day_s", "type": "DATE"},
    {"name": "num", "type": "NUMERIC"},
    {"name": "js", "type": "JSON"},
    {"name": "u64", "type": "INT64"},
    {
        "name": "rec",
        "type": "RECORD",
        "fields": [
            {"name": "a", "type": "STRING"},
            {"name": "n", "type": "INT64"},
            {"name": "ts", "type": "TIMESTAMP"},
            {"name": "tags", "type": "STRING", "mode": "REPEATED"},
            {
                "name": "inner",
                "type": "RECORD",
                "fields": [{"name": "x", "type": "FLOAT64"}, {"name": "ok", "type": "BOOL"}],
            },
        ],
    },
    {
        "name": "recs",
        "type": "RECORD",
        "mode": "REPEATED",
        "fields": [
            {"name": "a", "type": "STRING"},
            {"name": "n", "type": "INT64"},
            {"name": "ts", "type": "TIMESTAMP"},
            {"name": "tags", "type": "STRING", "mode": "REPEATED"},
            {
                "name": "inner",
                "type": "RECORD",
                "fields": [{"name": "x", "type": "FLOAT64"}, {"name": "ok", "type": "BOOL"}],
            },
        ],
    },
    {"name": "tags", "type": "STRING", "mode": "REPEATED"},
    {"name": "nums", "type": "INT64", "mode": "REPEATED"},
    {"name": "times", "type": "TIMESTAMP", "mode": "REPEATED"},
    {"name": "req", "type": "STRING", "mode": "REQUIRED"},
    {"name": "mismatch_rep", "type": "INT64", "mode": "REPEATED"},
    {"name": "mismatch_sc", "type": "STRING"},
    {"name": "color", "type": "STRING"},
    {"name": "mixedcase", "type": "STRING"},
    {"name": "s64", "type": "INT64"},
    {"name": "fx", "type": "INT64"},
    {"name": "i_as_s", "type": "STRING"},
    {"name": "s_as_i", "type": "INT64"},
    {"name": "b_as_bool", "type": "BOOL"},
    {"name": "rec_as_s", "type": "STRING"},
    {"name": "f32", "type": "FLOAT64"},
    {"name": "s_as_d", "type": "FLOAT64"},
    {"name": "s_as_b", "type": "BOOL"},
    {"name": "i32_as_d", "type": "FLOAT64"},
    {"name": "d_as_i", "type": "INT64"},
]


def _descriptor():
    from google.protobuf import descriptor_pb2

    F = descriptor_pb2.FieldDescriptorProto
    row = descriptor_pb2.DescriptorProto(name="Row")
    inner = row.nested_type.add(name="Inner")
    inner.field.add(name="x", number=1, type=F.TYPE_DOUBLE, label=F.LABEL_OPTIONAL)
    inner.field.add(name="ok", number=2, type=F.TYPE_BOOL, label=F.LABEL_OPTIONAL)
    nested = row.nested_type.add(name="Nested")
    nested.field.add(name="a", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    nested.field.add(name="n", number=2, type=F.TYPE_INT64, label=F.LABEL_OPTIONAL)
    nested.field.add(name="ts", number=3, type=F.TYPE_INT64, label=F.LABEL_OPTIONAL)
    nested.field.add(name="tags", number=4, type=F.TYPE_STRING, label=F.LABEL_REPEATED)
    nested.field.add(
        name="inner", number=5, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL, type_name="Row.Inner"
    )
    color = row.enum_type.add(name="Color")
    for number, label in enumerate(["RED", "GREEN", "BLUE"]):
        color.value.add(name=label, number=number)
    fields = [
        ("seq", F.TYPE_INT64, F.LABEL_OPTIONAL, None),
        ("s", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("b", F.TYPE_BYTES, F.LABEL_OPTIONAL, None),
        ("flag", F.TYPE_BOOL, F.LABEL_OPTIONAL, None),
        ("d", F.TYPE_DOUBLE, F.LABEL_OPTIONAL, None),
        ("f", F.TYPE_FLOAT, F.LABEL_OPTIONAL, None),
        ("i32", F.TYPE_INT32, F.LABEL_OPTIONAL, None),
        ("ts", F.TYPE_INT64, F.LABEL_OPTIONAL, None),
        ("ts_s", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("day", F.TYPE_INT32, F.LABEL_OPTIONAL, None),
        ("day_s", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("num", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("js", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("u64", F.TYPE_UINT64, F.LABEL_OPTIONAL, None),
        ("rec", F.TYPE_MESSAGE, F.LABEL_OPTIONAL, "Row.Nested"),
        ("recs", F.TYPE_MESSAGE, F.LABEL_REPEATED, "Row.Nested"),
        ("tags", F.TYPE_STRING, F.LABEL_REPEATED, None),
        ("nums", F.TYPE_INT64, F.LABEL_REPEATED, None),
        ("times", F.TYPE_INT64, F.LABEL_REPEATED, None),
        ("req", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("unknown_col", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("mismatch_rep", F.TYPE_INT64, F.LABEL_OPTIONAL, None),
        ("mismatch_sc", F.TYPE_STRING, F.LABEL_REPEATED, None),
        ("color", F.TYPE_ENUM, F.LABEL_OPTIONAL, "Row.Color"),
        ("MixedCase", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("s64", F.TYPE_SINT64, F.LABEL_OPTIONAL, None),
        ("fx", F.TYPE_FIXED32, F.LABEL_OPTIONAL, None),
        ("i_as_s", F.TYPE_INT64, F.LABEL_OPTIONAL, None),
        ("s_as_i", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("b_as_bool", F.TYPE_BOOL, F.LABEL_OPTIONAL, None),
        ("rec_as_s", F.TYPE_MESSAGE, F.LABEL_OPTIONAL, "Row.Inner"),
        ("f32", F.TYPE_FLOAT, F.LABEL_OPTIONAL, None),
        ("s_as_d", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("s_as_b", F.TYPE_STRING, F.LABEL_OPTIONAL, None),
        ("i32_as_d", F.TYPE_INT32, F.LABEL_OPTIONAL, None),
        ("d_as_i", F.TYPE_DOUBLE, F.LABEL_OPTIONAL, None),
    ]
    for number, (name, kind, label, type_name) in enumerate(fields, start=1):
        field = row.field.add(name=name, number=number, type=kind, label=label)
        if type_name:
            field.type_name = type_name
    return row


WORDS = ["", "a", "zephyr", "ünïcödé", "emoji 😀", 'quote " and \\', "x" * 300, "12", "-3"]


def _string(rng):
    return rng.choice(WORDS) + str(rng.randrange(1000))


def _micros(rng, wild):
    if wild and rng.random() < 0.2:
        return rng.choice([2**62, -(2**62), 253402300800000000, -62135596800000001])
    return rng.choice(
        [0, 1, -1, 1718376657758000, 253402300799999999, -62135596800000000]
        + [rng.randrange(-(2**50), 2**51)]
    )


def _double(rng):
    return rng.choice(
        [0.0, -0.0, 1.5, -2.25e-300, 1e308, float("inf"), float("-inf"), float("nan")]
        + [rng.uniform(-1e6, 1e6)]
    )


def _fill_nested(rng, nested, wild):
    if rng.random() < 0.8:
        nested.a = _string(rng)
    if rng.random() < 0.8:
        nested.n = rng.randrange(-(2**63), 2**63)
    if rng.random() < 0.6:
        nested.ts = _micros(rng, wild)
    for _ in range(rng.choice([0, 0, 1, 3])):
        nested.tags.append(_string(rng))
    if rng.random() < 0.6:
        nested.inner.x = _double(rng)
        if rng.random() < 0.5:
            nested.inner.ok = rng.random() < 0.5


def _row(rng, message, seq, bad, wild):
    row = message()
    row.seq = seq
    maybe = lambda p=0.7: rng.random() < p  # noqa: E731
    if maybe():
        row.s = _string(rng)
    if maybe():
        row.b = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    if maybe():
        row.flag = maybe(0.5)
    if maybe():
        row.d = _double(rng)
    if maybe():
        row.f = rng.choice([0.1, 3.4028234663852886e38, 1e-45, float("nan"), float("-inf")])
    if maybe():
        row.i32 = rng.randrange(-(2**31), 2**31)
    if maybe():
        row.ts = _micros(rng, wild)
    if maybe(0.5):
        row.ts_s = rng.choice(
            ["2024-06-14T14:50:57.758Z", "1718376657758000", "-5", "2024-06-14 10:00:00+02"]
            + (["not a time"] if bad else [])
        )
    if maybe(0.5):
        row.day = rng.randrange(-700000, 2900000) if not wild else rng.choice([0, 2**31 - 1])
    if maybe(0.5):
        row.day_s = rng.choice(["2024-06-14", "1970-01-01"] + (["June"] if bad else []))
    if maybe(0.5):
        row.num = rng.choice(["1.5", "-0.000000001", "123456789012345678901234567.5"]
                             + (["1e400", "abc"] if bad else []))
    if maybe(0.5):
        row.js = rng.choice(['{"a": [1, 2]}', "3", '"s"', "null", "[]"])
    if maybe(0.5):
        row.u64 = rng.choice([0, 2**63 - 1] + ([2**64 - 1] if bad else []))
    if maybe():
        _fill_nested(rng, row.rec, wild)
    for _ in range(rng.choice([0, 1, 2, 4])):
        _fill_nested(rng, row.recs.add(), wild)
    for _ in range(rng.choice([0, 1, 5])):
        row.tags.append(_string(rng))
    for _ in range(rng.choice([0, 2])):
        row.nums.append(rng.randrange(-(2**63), 2**63))
    for _ in range(rng.choice([0, 1, 3])):
        row.times.append(_micros(rng, wild))
    if not (bad and maybe(0.3)):
        row.req = _string(rng)
    if bad and maybe(0.2):
        row.unknown_col = "x"
    if maybe(0.3):
        row.mismatch_rep = rng.randrange(100)
    for _ in range(rng.choice([0, 0, 2])):
        row.mismatch_sc.append(_string(rng))
    if maybe(0.5):
        row.color = rng.randrange(3)
    if maybe(0.5):
        setattr(row, "MixedCase", _string(rng))
    if maybe(0.5):
        row.s64 = rng.randrange(-(2**63), 2**63)
    if maybe(0.5):
        row.fx = rng.randrange(2**32)
    if maybe(0.5):
        row.i_as_s = rng.randrange(-(2**63), 2**63)
    if maybe(0.5):
        row.s_as_i = rng.choice(["12", "-7"] + (["twelve", "9223372036854775808"] if bad else []))
    if maybe(0.5):
        row.b_as_bool = maybe(0.5)
    if maybe(0.3):
        row.rec_as_s.x = 1.0
    if maybe(0.5):
        row.f32 = rng.choice([0.1, 1e-45, -3.4e38, 2.5])
    # strings and numbers bound for columns of another type: the cast check decides
    if maybe(0.3):
        row.s_as_d = rng.choice(["1.5", "-0", "NaN", "Infinity", "1e5"] + (["abc"] if bad else []))
    if maybe(0.3):
        row.s_as_b = rng.choice(["true", "false"] + (["maybe"] if bad else []))
    if maybe(0.3):
        row.i32_as_d = rng.randrange(-(2**31), 2**31)
    if maybe(0.3):
        row.d_as_i = rng.choice([0.0, 3.0, -1e3] + ([2.5, 1e30] if bad else []))
    if bad:
        # one thing the table refuses, for sure
        what = rng.randrange(10)
        if what == 0:
            row.ClearField("req")
        elif what == 1:
            row.unknown_col = "x"
        elif what == 2:
            row.ts_s = "not a time"
        elif what == 3:
            row.day_s = "June"
        elif what == 4:
            row.num = "abc"
        elif what == 5:
            row.s_as_i = "twelve"
        elif what == 6:
            row.u64 = 2**64 - 1
        elif what == 7:
            row.s_as_i = "9223372036854775808"
        elif what == 8:
            row.s_as_d = "abc"
        else:
            row.s_as_b = "maybe"
    return row


def _generation_rule_failures(launcher):
    """The REST requests that start a catalog generation: all but reads (GET, HEAD)."""
    import asyncio

    async def app(scope, receive, send):
        return None

    failures = []
    for method, starts in (("GET", False), ("HEAD", False), ("get", False), ("POST", True),
                           ("PUT", True), ("PATCH", True), ("DELETE", True)):
        generation = launcher._CatalogGeneration()
        asyncio.run(launcher._BumpingAsgi(app, generation)({"type": "http", "method": method},
                                                          None, None))
        if (generation.number > 0) != starts:
            failures.append(f"a REST {method} {'did not start' if starts else 'started'} a new "
                            f"catalog generation ({generation.number} advances)")
    return failures


def _engine_thread_failures(launcher, database, threaded):
    """The rows above were compared on the engine's thread count the server runs with."""
    (threads,) = database.fetch("SELECT current_setting('threads')")[0]
    if threaded and int(threads) != launcher.ENGINE_THREADS:
        return [f"DuckDB runs {threads} threads, not the {launcher.ENGINE_THREADS} asked for"]
    database.reset()
    (again,) = database.fetch("SELECT current_setting('threads')")[0]
    if again != threads:
        return [f"a reset connection runs {again} DuckDB threads, not {threads}"]
    return []


def _kept_class_failures(write):
    """Every message type of a writer schema keeps its class while the server lives.

    upb makes the class of a nested message type when it first wraps such a message, and finds it
    again by the type's layout until the class is freed. Held by nothing but a cycle with its
    descriptor, such a class was garbage after each row; the collector clears a class before it
    frees it, and a nested message of another thread made in between got the cleared class, whose
    DESCRIPTOR is NULL: the emulator's segmentation faults (docs/RELIABILITY.md). A schema of its
    own here, so that no class the rows above made keeps these alive."""
    import gc
    import weakref

    from google.protobuf import descriptor_pb2

    F = descriptor_pb2.FieldDescriptorProto
    outer = descriptor_pb2.DescriptorProto(name="KeptOuter")
    leaf = outer.nested_type.add(name="Leaf")
    leaf.field.add(name="x", number=1, type=F.TYPE_DOUBLE, label=F.LABEL_OPTIONAL)
    mid = outer.nested_type.add(name="Mid")
    mid.field.add(name="leaf", number=1, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL,
                  type_name="KeptOuter.Leaf")
    outer.field.add(name="mid", number=1, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                    type_name="KeptOuter.Mid")
    kept_class = write._message_class(outer)
    row = kept_class()
    row.mid.add().leaf.x = 1.5
    data = row.SerializeToString()
    del row
    row = kept_class.FromString(data)
    classes = {"KeptOuter.Mid": weakref.ref(type(row.mid[0])),
               "KeptOuter.Leaf": weakref.ref(type(row.mid[0].leaf))}
    del row
    gc.collect()
    return [f"the class of the nested message type {name} was collected after its row: upb can "
            "hand a cleared class to the next row" for name, ref in classes.items() if ref() is None]


def run(launcher, args):
    batches = int(args[0]) if args else 60
    seed = int(args[1]) if len(args) > 1 else 1
    data = Path(tempfile.mkdtemp(prefix="fast-append-selftest-"))
    from local_bigquery.settings import settings

    settings.data_dir = data
    settings.default_project_id = "p"
    settings.default_dataset_id = "d"
    import grpc
    from google.cloud.bigquery_storage_v1 import types

    from local_bigquery.catalog import tabledata, tables
    from local_bigquery.engine import database
    from local_bigquery.grpc import write
    from local_bigquery.models import Table

    launcher.install_kept_message_classes()
    threaded = launcher.install_engine_threads()
    own = (write._decoder, write._insert, write.append, tabledata.insert_all, write.tables)
    grouped = launcher.install_grouped_appends()
    generation = launcher.install_kept_lookups()
    fast = (
        *launcher._build_fast_append(write, tabledata),
        write.append,
        tabledata.insert_all,
        write.tables,
    )
    descriptor = _descriptor()
    message = write._message_class(descriptor)
    rng = random.Random(seed)
    failures = []
    Type = types.WriteStream.Type

    def table(name):
        body = Table.model_validate(
            {"tableReference": {"tableId": name}, "schema": {"fields": SCHEMA}}
        )
        tables.create("p", "d", body, translate=None)
        return f"projects/p/datasets/d/tables/{name}"

    def request(stream, rows, offset, with_schema):
        body = {"write_stream": stream, "proto_rows": {"rows": {"serialized_rows": rows}}}
        if with_schema:
            body["proto_rows"]["writer_schema"] = {"proto_descriptor": descriptor}
        if offset is not None:
            body["offset"] = offset
        return types.AppendRowsRequest(body)

    def outcome(call):
        try:
            return ("ok", call())
        except Exception as error:  # noqa: BLE001 - compared between both paths
            return ("raised", f"{type(error).__name__}: {error}")

    def normalised(result, streams):
        # commit times differ between the two runs; everything else must not
        text = re.sub(r"(commit_time|create_time) \{[^}]*\}", r"\1 {...}", str(result))
        for index, name in enumerate(streams):
            text = text.replace(name, f"<stream {index}>")
        return text

    def compare(what, a, b):
        if a != b:
            failures.append(f"{what}:\n  own:  {str(a)[:3000]}\n  fast: {str(b)[:3000]}")

    def contents(path):
        name = tables.name(*write.table(path))
        rows = database.fetch(f"SELECT CAST(COLUMNS(*) AS VARCHAR) FROM {name}")
        # The sign of a zero inside a repeated record is not kept the same way whatever the
        # request sizes: the emulator's own path, given the same rows in one request or in
        # several, stores -0.0 in one case and 0.0 in the other (DuckDB's storage of the insert;
        # checked on 2026-11-27). Joining queued appends changes request sizes, so zeros are
        # compared without their sign; every other value exactly.
        return sorted(SIGNED_ZERO.sub("0.0", repr(row)) for row in rows)

    tables_by_path = {}
    for variant in ("own", "fast"):
        tables_by_path[variant] = {
            kind: table(f"t_{kind}_{variant}") for kind in ("default", "committed", "pending", "buffered")
        }
    decoded_rows = 0
    reads_compared = 0
    unnamed_groups = {True: 0, False: 0}  # named-once connections' appends: joined or not
    refused = raised = 0
    for batch in range(batches):
        if batch == batches // 2:
            # A catalog change half-way (as a REST call or a query job would make, each of which
            # starts a new generation): a column the rows carry is dropped, so a kept look-up
            # that outlived it would insert into a column that is gone instead of refusing rows.
            for variant in tables_by_path.values():
                for path in variant.values():
                    database.execute(f"ALTER TABLE {tables.name(*write.table(path))} DROP COLUMN color")
            generation.advance()
        bad = rng.random() < 0.35
        wild = not bad and rng.random() < 0.1  # timestamps beyond Python's: the append raises
        size = rng.choice([1, 2, 7, 50, 300])
        seq0 = batch * 1000
        rows = [
            _row(rng, message, seq0 + i, bad and rng.random() < 0.1, wild and rng.random() < 0.02)
            .SerializeToString()
            for i in range(size)
        ]
        kind = rng.choice(["default", "default", "committed", "pending", "buffered"])
        again = rng.random() < 0.5
        # Half the connections name their stream in the first request only, as the Java Storage
        # Write client does; the rest name it in every request, as the Python client does.
        named_once = rng.random() < 0.5

        def named(name, i):
            return "" if named_once and i > 0 else name

        # _default: the rows in 1-4 requests on one connection, which the launcher's grouped
        # append joins into one insert (and redoes one by one when the joined one fails)
        cuts = sorted(rng.sample(range(1, size), min(size - 1, rng.randrange(4)))) if size > 1 else []
        pieces = [rows[a:b] for a, b in zip([0] + cuts, cuts + [size])]
        results = {}
        # The decoded rows themselves, before any insert: same keys, order, values and types.
        fields = tables.columns(*write.table(tables_by_path["own"]["default"]))
        probe = request("probe", rows, None, True)
        compare(
            f"batch {batch}: decoded rows",
            outcome(lambda: repr(own[0](probe)(probe, fields))),
            outcome(lambda: repr(fast[0](probe)(probe, fields))),
        )
        for variant, (decoder, insert, append, insert_all, lookups) in (("own", own), ("fast", fast)):
            write._decoder, write._insert, write.append = decoder, insert, append
            tabledata.insert_all, write.tables = insert_all, lookups
            path = tables_by_path[variant][kind]
            names = []
            if kind == "default":
                name = f"{path}/streams/_default"
                calls = [
                    request(named(name, i), piece, None, i == 0) for i, piece in enumerate(pieces)
                ]
            else:
                kinds = {"committed": Type.COMMITTED, "pending": Type.PENDING, "buffered": Type.BUFFERED}
                created = write.create(
                    types.CreateWriteStreamRequest(
                        parent=path, write_stream=types.WriteStream(type_=kinds[kind])
                    )
                )
                name = created.name
                half = len(rows) // 2
                calls = [
                    request(name, rows[:half], 0, True),
                    request(named(name, 1), rows[half:], half, False),
                ]
                if kind == "committed" and again:
                    calls.append(request(named(name, 2), rows[:1], 0, False))  # an offset that exists
            names.append(name)
            groups_before = grouped["joined"] + grouped["redone"]
            result = [normalised(outcome(lambda: list(write.append(iter(calls)))), names)]
            if variant == "fast" and kind == "default" and named_once and len(calls) > 1:
                # requests that do not name their stream are joined like the others
                unnamed_groups[grouped["joined"] + grouped["redone"] > groups_before] += 1
            if kind == "buffered":
                result.append(normalised(outcome(lambda: write.flush(
                    types.FlushRowsRequest(write_stream=name, offset=max(0, len(rows) // 2 - 1)))), names))
                result.append(normalised(outcome(lambda: write.flush(
                    types.FlushRowsRequest(write_stream=name, offset=len(rows) - 1))), names))
            if kind == "pending":
                result.append(normalised(outcome(lambda: write.finalize(
                    types.FinalizeWriteStreamRequest(name=name))), names))
                result.append(normalised(outcome(lambda: write.commit(
                    types.BatchCommitWriteStreamsRequest(parent=path, write_streams=[name]))), names))
            results[variant] = result
        # A REST read of the table just written (local mode's progress poll): with the look-ups
        # that reads keep, kept from earlier batches, it must give what the emulator's own read
        # gives now (the row count after this batch's appends, the schema after the change).
        for variant in ("own", "fast"):
            keys = write.table(tables_by_path[variant][kind])
            own_read = outcome(lambda: tables.get(*keys).dump())
            reading = launcher._READING.set(True)
            try:
                kept_read = outcome(lambda: tables.get(*keys).dump())
            finally:
                launcher._READING.reset(reading)
            compare(f"batch {batch}: tables.get of the {variant} {kind} table", own_read, kept_read)
            reads_compared += 1
        decoded_rows += len(rows)
        seen = " ".join(results["own"])
        refused += seen.count("row_errors {")
        raised += seen.count("('raised'")
        compare(f"batch {batch} ({kind}, {len(rows)} rows, bad={bad})", results["own"], results["fast"])
    write._decoder, write._insert, write.append, tabledata.insert_all, write.tables = own
    for kind in ("default", "committed", "pending", "buffered"):
        compare(
            f"table {kind}",
            contents(tables_by_path["own"][kind]),
            contents(tables_by_path["fast"][kind]),
        )
    written = sum(len(contents(tables_by_path["own"][k])) for k in tables_by_path["own"])
    failures += _generation_rule_failures(launcher)
    failures += _engine_thread_failures(launcher, database, threaded)
    failures += _kept_class_failures(write)
    if failures:
        print("\n".join(failures[:10]))
        print(f"self-test FAILED: {len(failures)} differences")
        return 1
    if written == 0:
        print("self-test FAILED: no row was written, nothing was compared")
        return 1
    if refused == 0:
        print("self-test FAILED: no row was refused, the error path was not compared")
        return 1
    if reads_compared == 0:
        print("self-test FAILED: no REST read was compared")
        return 1
    if grouped["joined"] == 0 or grouped["redone"] == 0:
        print(f"self-test FAILED: grouped appends not both exercised ({grouped})")
        return 1
    if unnamed_groups[False] or not unnamed_groups[True]:
        print(f"self-test FAILED: appends that name their stream once were not all joined "
              f"({unnamed_groups[True]} groups joined, {unnamed_groups[False]} not)")
        return 1
    print(f"self-test OK: {batches} batches, {decoded_rows} rows appended by each path, "
          f"{written} written, {refused} row errors, {raised} calls that raised, "
          f"{grouped['joined']} groups of queued appends joined, {grouped['redone']} redone alone, "
          f"{reads_compared} table reads; same responses, reads and table contents")
    return 0

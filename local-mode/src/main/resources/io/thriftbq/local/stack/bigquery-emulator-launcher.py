# Copied next to the emulator's data directory by io.thriftbq.local.stack.BigQueryEmulator, which
# runs it with the emulator's own Python: local-bigquery (the version scripts/local/
# install-bigquery-emulator.sh pins) with a few changes made at start, none in the installed package:
#
# - BigQuery's 10 MB AppendRows request limit instead of gRPC's default 4 MiB;
# - a crash in native code (protobuf's C extension, gRPC) prints every thread's stack to the log;
# - one message class per writer schema, and one per message type nested in it, kept for the
#   server's life, instead of a new descriptor pool per append connection that is freed when the
#   connection ends, and nested classes the garbage collector frees after every row;
# - a cheaper Storage Write append path (install_fast_append below), unless
#   THRIFTBQ_BQ_FAST_APPEND=0;
# - BigQuery change data capture (rows with _CHANGE_TYPE on _default merged by primary key), on
#   either append path: bigquery_emulator_cdc.py, next to this file, says what it models;
# - appends queued on a _default connection inserted together (install_grouped_appends), and the
#   append path's catalog look-ups kept until the catalog may have changed (install_kept_lookups),
#   both with the fast path;
# - DuckDB on one thread (install_engine_threads), instead of one per core, with the fast path.
#
# Environment: THRIFTBQ_BQ_MAX_MESSAGE_BYTES (the gRPC message limit, default 10 MiB),
# THRIFTBQ_BQ_FAST_APPEND (1 by default; 0 keeps the emulator's own append path, and turns the
# three below off too), THRIFTBQ_BQ_GROUP_APPENDS and THRIFTBQ_BQ_KEEP_LOOKUPS (1 by default; 0
# turns either off alone, for A/B runs), THRIFTBQ_BQ_GROUP_MAX_ROWS (rows of one joined insert,
# default 2000), THRIFTBQ_BQ_DUCKDB_THREADS (DuckDB's worker threads, default 1; 0 leaves DuckDB's
# own default, one per core).
# `python bigquery-emulator-launcher.py --self-test [ROWS]` checks the fast path against the
# emulator's own functions on random rows, in process, without starting a server;
# `python bigquery-emulator-launcher.py --cdc-self-test` checks the CDC model the same way.
import base64
import contextvars
import faulthandler
import os
import sys
import threading

faulthandler.enable()

LIMIT = int(os.environ.get("THRIFTBQ_BQ_MAX_MESSAGE_BYTES", str(10 * 1024 * 1024)))
# The append path below relies on internals of this version's local_bigquery.grpc.write (_decoder,
# _row, _insert and the names it calls); another version runs unpatched rather than with a patch
# that may no longer fit it.
FAST_APPEND_VERSION = "0.4.0"


def install_message_limit():
    import grpc

    _server = grpc.server

    def server_with_bigquery_limits(*args, **kwargs):
        options = list(kwargs.pop("options", None) or [])
        options += [
            ("grpc.max_receive_message_length", LIMIT),
            ("grpc.max_send_message_length", LIMIT),
        ]
        return _server(*args, options=options, **kwargs)

    grpc.server = server_with_bigquery_limits


def install_kept_message_classes():
    # Against segmentation faults of upb in reading a nested message of an appended row (2 of 6
    # runs of PubsubRestartEndToEndTest on 2026-11-25, and with clients killed mid-append): the
    # classes of the nested types must be kept too (every_class below).
    from local_bigquery.grpc import write as _write

    if not hasattr(_write, "_message_class"):
        return
    from google.protobuf import message_factory

    new_message_class = _write._message_class
    kept = {}
    lock = threading.Lock()

    def every_class(top):
        # upb makes the class of a nested message type on demand (a nested message's wrapper) and
        # looks it up again by its layout in a cache that drops it only when the class is freed.
        # Held by nothing but its descriptor, such a class is cyclic garbage after each row; when
        # the garbage collector has cleared it (tp_clear: no DESCRIPTOR, no MRO) but not yet freed
        # it, and another thread runs in between, that thread's nested message gets the cleared
        # class and the next .DESCRIPTOR reads NULL (SIGSEGV in PyUpb_Descriptor_GetDef). Keeping
        # every message type's class of the schema alive means none is ever collected.
        classes, seen, todo = [top], {top.DESCRIPTOR.full_name}, [top.DESCRIPTOR]
        while todo:
            descriptor = todo.pop()
            for nested in list(descriptor.nested_types) + [
                f.message_type for f in descriptor.fields if f.message_type is not None
            ]:
                if nested.full_name not in seen:
                    seen.add(nested.full_name)
                    classes.append(message_factory.GetMessageClass(nested))
                    todo.append(nested)
        return classes

    def message_class_kept(proto):
        key = proto.SerializeToString(deterministic=True)
        with lock:
            if key not in kept:
                kept[key] = every_class(new_message_class(proto))
            return kept[key][0]

    _write._message_class = message_class_kept


# --- The fast append path -----------------------------------------------------------------------
#
# Why: at the pipeline's ~870-row appends the emulator spent 480-640 us of CPU per row (one core,
# the GIL), and a py-spy profile (benchmarks/RESULTS.md section 9, "The emulator's append path")
# put most of it outside DuckDB: json_format.MessageToDict and the emulator's per-row, per-field
# schema lookups (_row/_value, a pydantic copy of the field schema for every repeated value), a
# pydantic TableDataInsertAllRequest built and dumped again for every row, the rows encoded to
# JSON twice (once for the conversion check, once for the insert), and a DuckDB query checking
# every scalar column for values that cannot be cast, STRING columns included.
#
# What: the same rows, errors and responses, made with less work:
# - rows are decoded by a converter compiled once per (writer schema, table schema) pair, which
#   gives exactly what _row(fields, MessageToDict(message, preserving_proto_field_name=True))
#   gives: same keys in the same order, same values (int64 as strings, bytes as base64, float
#   specials as strings, TIMESTAMP and DATE through the emulator's own _value); a field whose
#   proto and table shapes disagree goes through the emulator's own _value, a row on which the
#   converter raises is converted again by the emulator's own code (which raises the same error
#   or gives the value), and a writer schema the converter does not handle (extensions, maps,
#   well-known types, enums with JSON options) is decoded by the emulator's own decoder;
# - the emulator's own write._insert and tabledata.insert_all (every check, the insert), handed a
#   request that holds the decoded rows as they are (_PlainRequest) instead of a pydantic model
#   validated and dumped again for every row;
# - the emulator's own cast check (tabledata._unconvertible), handed only the columns holding a
#   value that could fail it (_narrowed_cast_check below), and no query when none does.
# Everything else (the checks and the insert, stream states, offsets, flush, finalize, commit,
# _default, the REST insertAll) is the emulator's own code, called, not copied.


class _Unsupported(Exception):
    pass


def _fields_key(fields):
    return tuple(
        (f.name, f.type, f.mode, _fields_key(f.fields or [])) for f in fields or []
    )


def _build_fast_append(write, tabledata):
    from google.cloud.bigquery_storage_v1 import types
    from google.protobuf import descriptor, json_format
    from google.protobuf.internal import type_checkers

    FD = descriptor.FieldDescriptor
    INT64_SIGNED = {FD.CPPTYPE_INT64}
    INT32 = {FD.CPPTYPE_INT32, FD.CPPTYPE_UINT32}
    WKT = set(json_format._WKTJSONMETHODS)
    printer = json_format._Printer(preserving_proto_field_name=True)
    original_value = write._value
    original_row = write._row
    message_to_dict = json_format.MessageToDict
    b64encode = base64.b64encode
    to_shortest_float = type_checkers.ToShortestFloat
    inf = float("inf")

    # --- JSON values, as MessageToDict(preserving_proto_field_name=True) gives them ------------

    def json_scalar(fd):
        cpp = fd.cpp_type
        if cpp == FD.CPPTYPE_MESSAGE:
            return json_message(fd.message_type)
        if cpp == FD.CPPTYPE_ENUM:
            if fd.enum_type.full_name == "google.protobuf.NullValue":
                raise _Unsupported("NullValue")
            names = {
                value.number: printer._FieldToJsonObject(fd, value.number)
                for value in fd.enum_type.values
            }

            def enum(v):
                return names[v]  # KeyError for an unknown number: the row is redone

            return enum
        if cpp == FD.CPPTYPE_STRING:
            if fd.type == FD.TYPE_BYTES:
                return lambda v: b64encode(v).decode("utf-8")
            return str
        if cpp == FD.CPPTYPE_BOOL:
            return bool
        if cpp in (FD.CPPTYPE_INT64, FD.CPPTYPE_UINT64):
            return str
        if cpp in (FD.CPPTYPE_DOUBLE, FD.CPPTYPE_FLOAT):
            finite = (lambda v: v) if cpp == FD.CPPTYPE_DOUBLE else to_shortest_float

            def floating(v):
                if v != v:
                    return "NaN"
                if v == inf:
                    return "Infinity"
                if v == -inf:
                    return "-Infinity"
                return finite(v)

            return floating
        if cpp in INT32:
            return None  # the value as it is
        raise _Unsupported(f"field type {cpp}")

    def json_field(fd):
        element = json_scalar(fd)
        if fd.is_repeated:
            if element is None:
                return list
            return lambda v: [element(x) for x in v]
        return element

    message_plans = {}

    def check_message(md):
        if md.full_name in WKT or md.file.name == "google/protobuf/wrappers.proto":
            raise _Unsupported("well-known type " + md.full_name)
        if md.extension_ranges or md.extensions:
            raise _Unsupported("extensions")
        for fd in md.fields:
            if fd.is_extension:
                raise _Unsupported("extension")
            if fd.type == FD.TYPE_MESSAGE and fd.message_type.GetOptions().map_entry:
                raise _Unsupported("map field")

    def json_message(md):
        if md in message_plans:
            return message_plans[md]
        check_message(md)
        handlers = {}

        def to_json(message):
            js = {}
            for fd, v in message.ListFields():
                key, convert = handlers[fd.number]
                js[key] = v if convert is None else convert(v)
            return js

        message_plans[md] = to_json  # before the fields: a message may contain itself
        for fd in md.fields:
            handlers[fd.number] = (fd.name, json_field(fd))
        return to_json

    # --- _row / _value on top, with the table's schema resolved once ----------------------------

    def row_field(fd, sf):
        plain = json_field(fd)
        if sf is None:
            return plain
        repeated = fd.is_repeated
        is_message = fd.cpp_type == FD.CPPTYPE_MESSAGE
        if repeated != (sf.mode == "REPEATED") or is_message != (sf.type == "RECORD"):
            # shapes disagree: the emulator's own _value on the JSON value
            if plain is None:
                return lambda v: original_value(sf, v)
            return lambda v: original_value(sf, plain(v))
        if repeated:
            element_schema = sf.replace(mode="NULLABLE")
            element = single_field(fd, element_schema)
            if element is None:
                return list
            return lambda v: [element(x) for x in v]
        return single_field(fd, sf)

    def single_field(fd, sf):
        """One value of fd under a schema whose mode is not REPEATED and whose RECORD-ness
        matches fd's; None: the value as it is."""
        if fd.cpp_type == FD.CPPTYPE_MESSAGE:
            return row_converter(fd.message_type, sf.fields or [])
        if sf.type in ("TIMESTAMP", "DATE"):
            plain = json_scalar(fd)
            if plain is None:
                return lambda v: original_value(sf, v)
            return lambda v: original_value(sf, plain(v))
        return json_scalar(fd)

    row_plans = {}

    def row_converter(md, fields):
        key = (md, _fields_key(fields))
        if key in row_plans:
            return row_plans[key]
        check_message(md)
        by_name = {f.name.casefold(): f for f in fields}
        handlers = {}

        def to_row(message):
            row = {}
            for fd, v in message.ListFields():
                name, convert = handlers[fd.number]
                row[name] = v if convert is None else convert(v)
            return row

        row_plans[key] = to_row
        for fd in md.fields:
            handlers[fd.number] = (fd.name, row_field(fd, by_name.get(fd.name.casefold())))
        return to_row

    # --- the decoder -------------------------------------------------------------------------------

    original_decoder = write._decoder
    raw_request = types.AppendRowsRequest.pb
    lock = threading.Lock()

    def decoder(request):
        if "arrow_rows" in request:
            return original_decoder(request)
        descriptor_proto = request.proto_rows.writer_schema.proto_descriptor
        if not descriptor_proto.name:
            return None
        message = write._message_class(descriptor_proto)
        try:
            with lock:
                json_message(message.DESCRIPTOR)
        except Exception as reason:  # noqa: BLE001 - anything it cannot plan, the emulator decodes
            print(
                f"thriftbq fast append: writer schema {descriptor_proto.name} decoded by the "
                f"emulator's own code ({reason})",
                file=sys.stderr,
            )
            return original_decoder(request)
        from_string = message.FromString

        own = original_decoder(request)

        def decode(request, fields):
            try:
                with lock:
                    convert = row_converter(message.DESCRIPTOR, fields)
            except Exception:  # noqa: BLE001 - a table schema it cannot plan: the emulator's way
                return own(request, fields)
            rows = []
            append = rows.append
            for serialized in raw_request(request).proto_rows.rows.serialized_rows:
                parsed = from_string(serialized)
                try:
                    append(convert(parsed))
                except Exception:
                    # The emulator's own conversion raises the same error, or gives the row.
                    append(
                        original_row(
                            fields,
                            message_to_dict(parsed, preserving_proto_field_name=True),
                        )
                    )
            return rows

        return decode

    return decoder, _insert_with_plain_request(write, _narrowed_cast_check(tabledata))


class _PlainJson:
    """A row's JSON as insert_all reads it (json_.model_dump()), without validating it into pydantic
    models first: the rows come from the converter, or from the emulator's own _row, as plain data."""

    __slots__ = ("row",)

    def __init__(self, row):
        self.row = row

    def model_dump(self):
        return self.row


class _PlainRow:
    __slots__ = ("json_", "insertId")

    def __init__(self, row):
        self.json_ = _PlainJson(row)
        self.insertId = None


class _PlainRequest:
    """What write._insert builds (TableDataInsertAllRequest(rows=[{"json": row}, ...])), with the
    attributes tabledata.insert_all reads and none of the per-row pydantic validation and dumping,
    which was 19% of the emulator's CPU at the pipeline's ~870-row appends."""

    __slots__ = ("rows",)
    templateSuffix = None
    ignoreUnknownValues = None
    skipInvalidRows = None

    def __init__(self, rows):
        self.rows = [_PlainRow(item["json"]) for item in rows]


def _insert_with_plain_request(write, narrowed):
    """The emulator's own write._insert (same code, same tabledata.insert_all and its checks), run
    with _PlainRequest in place of the pydantic request: the function is rebuilt on a copy of its
    module's globals, so the emulator's REST insertAll and every other caller keep pydantic. The
    cast check is narrowed (narrowed.on) for the rows of this path only."""
    import types as pytypes

    own = write._insert
    scope = dict(own.__globals__)
    scope["TableDataInsertAllRequest"] = _PlainRequest
    plain = pytypes.FunctionType(
        own.__code__, scope, own.__name__, own.__defaults__, own.__closure__
    )

    def insert(stream, rows):
        narrowed.on = True
        try:
            return plain(stream, rows)
        finally:
            narrowed.on = False

    return insert


# Why: tabledata.insert_all checks every scalar column of every row with a DuckDB query (TRY_CAST
# of each value, the rows encoded to JSON for it), STRING columns included: 11-12% of the
# emulator's CPU (py-spy, benchmarks/RESULTS.md section 25), at 30-row appends a second query per
# append beside the insert. Most values the append path hands it cannot fail a cast: they are
# strings bound for VARCHAR, or int64 digits, finite floats, booleans and the timestamps the
# emulator's own _value formats, bound for columns of those types.
# What: the emulator's own check, called with only the columns where some row holds a value not
# shown castable by the rules below (and the rows cut to those columns); none: no query. A value
# is shown castable only by its Python type and form, never by its provenance, so a value any
# rule does not cover is checked exactly as before, and the answer (which columns of which row
# refuse their value) is the same. Only for the Storage Write rows of the fast path, whose values
# are JSON-ready (float specials are strings there); the REST insertAll keeps the whole check.
_INT64_DIGITS = r"-?[0-9]{1,18}"  # at most 18 digits: always inside BIGINT's range
_UTC_ISO = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{6})?\+00:00"


def _castable_rules():
    import datetime
    import math
    import re

    int64_digits = re.compile(_INT64_DIGITS).fullmatch
    utc_iso = re.compile(_UTC_ISO).fullmatch
    from_iso = datetime.datetime.fromisoformat

    def bigint(v):
        t = type(v)
        if t is int:
            return -(2**63) <= v < 2**63
        return t is str and int64_digits(v) is not None

    def double(v):
        t = type(v)
        if t is float:
            return math.isfinite(v)
        return t is int and -(2**53) <= v <= 2**53

    def timestamp(v):
        # the form _value gives (datetime.isoformat in UTC), of a date that exists
        if type(v) is not str or utc_iso(v) is None:
            return False
        try:
            from_iso(v)
        except ValueError:
            return False
        return True

    return {
        "BIGINT": bigint,
        "DOUBLE": double,
        "BOOLEAN": lambda v: type(v) is bool,
        "TIMESTAMP WITH TIME ZONE": timestamp,
    }


def _narrowed_cast_check(tabledata):
    """Replaces tabledata._unconvertible (once) by the narrowed check, on while .on is set in this
    thread; returns the switch (a threading.local)."""
    existing = getattr(tabledata._unconvertible, "thriftbq_switch", None)
    if existing is not None:
        return existing
    own = tabledata._unconvertible
    switch = threading.local()
    rules = _castable_rules()
    unchecked_kinds = ("list", "array", "struct", "map")  # own() never checks these
    # own() never checks JSON or BLOB, and a VARCHAR column never fails it: any JSON value read as
    # VARCHAR casts to VARCHAR, so no value needs looking at
    never_failing = ("JSON", "BLOB", "VARCHAR")

    def unconvertible(schema, rows):
        if not getattr(switch, "on", False):
            return own(schema, rows)
        checked = {}
        for key, (column, t) in schema.items():
            kind = str(t)
            if t.id in unchecked_kinds or kind in never_failing:
                continue
            rule = rules.get(kind)
            if rule is not None and all(
                rule(v) for v in (row.get(column) for row in rows) if v is not None
            ):
                continue
            checked[key] = (column, t)
        if not checked:
            return [[] for _ in rows]
        names = [column for column, _ in checked.values()]
        return own(checked, [{c: row[c] for c in names if c in row} for row in rows])

    unconvertible.thriftbq_switch = switch
    tabledata._unconvertible = unconvertible
    return switch


def install_fast_append():
    from importlib import metadata

    version = metadata.version("local-bigquery")
    if version != FAST_APPEND_VERSION:
        print(
            f"thriftbq fast append: local-bigquery {version} is not {FAST_APPEND_VERSION}; "
            "the emulator's own append path is kept",
            file=sys.stderr,
        )
        return False
    from local_bigquery.catalog import tabledata
    from local_bigquery.grpc import write

    write._decoder, write._insert = _build_fast_append(write, tabledata)
    return True


# --- Queued appends to _default inserted together ---------------------------------------------
#
# Why: every append the emulator takes is its own DuckLake transaction: catalog and schema look-ups
# (tables.load, tables.columns, twice or three times), a query checking values that cannot be cast,
# and an INSERT that writes a Parquet file and commits. py-spy put 90% of the emulator's CPU there
# at 10 rows per request (55 ms a request on the CI machine class, about 20x its cost per row at
# 500). With a write per struct, appends are small, and the emulator fell behind.
# What: when appends to a _default stream queue on a connection (the client pipelines them; they
# queue when the emulator is behind), the ones waiting are appended as one request of their rows,
# through the emulator's own _append (its checks, the CDC layer, the insert), and each gets the
# response it would have had alone. When the joined append fails in any way (a row error, or the
# INSERT itself raising, which here never inserts part of the rows), nothing was inserted, and the
# requests are appended again one by one, as the emulator would have: same rows, same errors.
# Streams other than _default (offsets, flush, finalize, commit), change rows (_CHANGE_TYPE) and
# requests that carry offsets are never joined.

GROUP_MAX_ROWS = int(os.environ.get("THRIFTBQ_BQ_GROUP_MAX_ROWS", "2000"))


class _JoinedInsertFailed(Exception):
    """The joined append's INSERT raised: nothing of it was inserted."""


class _OneInsert(list):
    """The joined rows as tabledata._insert receives them, reporting a length of 1: its only use
    of len() is to re-raise, rather than retry row by row, when the INSERT of every row fails."""

    def __len__(self):
        return 1


def install_grouped_appends():
    import queue

    from google.cloud.bigquery_storage_v1 import types
    from local_bigquery.catalog import tabledata
    from local_bigquery.grpc import write

    import duckdb

    joining = threading.local()
    own_table_insert = tabledata._insert
    counts = {"joined": 0, "redone": 0}  # groups of 2+ requests: inserted as one, redone alone

    def table_insert(table, schema, rows):
        if not getattr(joining, "on", False):
            return own_table_insert(table, schema, rows)
        try:
            return own_table_insert(table, schema, _OneInsert(rows))
        except duckdb.Error as error:
            raise _JoinedInsertFailed(str(error)) from error

    def joinable(name, request, rows):
        # The stream's name, not the request's: clients name the stream in the first request of
        # a connection only (the Java Storage Write client does), so later requests carry none.
        return type(rows) is list and "offset" not in request and name.endswith("/streams/_default")

    def answer(stream, group):
        """Responses for the queued appends of group (row lists, in order) to stream."""
        if len(group) == 1:
            yield write._append(stream, group[0], None)
            return
        joining.on = True
        try:
            response = write._append(stream, [row for rows in group for row in rows], None)
        except Exception:  # noqa: BLE001 - nothing was inserted; redone one by one below
            # _JoinedInsertFailed, or the emulator's own checks raising before any insert: the
            # requests alone then answer, or raise, where the emulator would have.
            response = None
        finally:
            joining.on = False
        if response is not None and "error" not in response:
            counts["joined"] += 1
            for _ in group:
                alone = types.AppendRowsResponse(write_stream=stream.name)
                alone.append_result = types.AppendRowsResponse.AppendResult()
                yield alone
            return
        counts["redone"] += 1
        for rows in group:  # nothing was inserted: each on its own, as the emulator would
            yield write._append(stream, rows, None)

    def append(requests):
        pending = queue.Queue()
        end = object()

        def read():
            try:
                for request in requests:
                    pending.put(request)
            except Exception as error:  # noqa: BLE001 - raised in the responding thread
                pending.put(error)
            pending.put(end)

        threading.Thread(target=read, name="thriftbq-append-reader", daemon=True).start()
        name, decode = None, None
        stream, group, size = None, [], 0
        item = pending.get()
        while True:
            if item is end or isinstance(item, Exception):
                yield from answer(stream, group) if group else ()
                if item is end:
                    return
                raise item
            try:
                name = item.write_stream or name
                target = write._stream(name)
                decode = write._decoder(item) or decode
                rows = decode(item, write.tables.columns(*target.table))
            except Exception:
                yield from answer(stream, group) if group else ()
                raise
            if group and (target is not stream or not joinable(name, item, rows)):
                yield from answer(stream, group)
                group, size = [], 0
            if joinable(name, item, rows):
                stream = target
                group.append(rows)
                size += len(rows)
            else:
                offset = item.offset if "offset" in item else None
                yield write._append(target, rows, offset)
            if group and size >= GROUP_MAX_ROWS:
                yield from answer(stream, group)
                group, size = [], 0
            try:
                item = pending.get_nowait()
            except queue.Empty:
                if group:
                    yield from answer(stream, group)
                    group, size = [], 0
                item = pending.get()

    tabledata._insert = table_insert
    write.append = append
    # The gRPC server's table of methods holds the function it was built with: point AppendRows
    # at this one (importing the server module after the line above builds it with this one too).
    from local_bigquery.grpc import server

    server.SERVICES["google.cloud.bigquery.storage.v1.BigQueryWrite"]["AppendRows"] = (
        server._streaming(
            append, types.AppendRowsRequest, types.AppendRowsResponse, bidirectional=True
        )
    )
    return counts


# --- Catalog look-ups of the append path, kept between catalog changes ---------------------------
#
# Why: after the INSERT itself, the largest part of an append's cost is looking the table up again:
# write.append reads its columns for every request, and tabledata.insert_all loads the table (to
# raise "not found" or drop it when expired), binds SELECT * to read its column types, and reads
# its columns once more: five DuckLake catalog queries a request (py-spy: ~55% of the emulator's CPU
# at 10 rows per request).
# What: the append path keeps what those look-ups return, per table, until the catalog may have
# changed: every REST request that may write (any method but GET and HEAD) and every job (queries
# can run DDL) starts a new generation, which empties the kept look-ups, and a table past its
# expiration time is looked up again. The values are the emulator's own functions' results, called
# the first time; nothing else reads them.
# Reads do not start one: they change nothing the append path keeps (a GET of an expired table
# drops it, and the kept load looks such a table up again itself), and local mode's progress polls
# are GETs, twice a second, which would otherwise empty the kept look-ups before most appends of a
# light run (py-spy at the default 200 events/s: the look-ups redone were ~13% of the emulator's
# time holding the interpreter).
# REST reads of a table keep two of the same look-ups, its columns and its stored resource, by the
# same rule; its row count (numRows) is read afresh every time. Why: local mode follows a run with
# a tables.get of every table it writes, once a second, and each one read the columns and the
# stored resource anew (py-spy at saturation: ~4.5% of the emulator's time; at the slow end a
# larger share of a smaller machine). Only reads keep them: a job or a write that runs several
# statements in one generation reads what it changed.

_READING = contextvars.ContextVar("thriftbq_rest_read", default=False)


class _CatalogGeneration:
    def __init__(self):
        self.number = 0
        self.lock = threading.Lock()

    def advance(self):
        with self.lock:
            self.number += 1


class _BumpingAsgi:
    """The emulator's REST app, with a new catalog generation before and after every request that
    may write."""

    READS = frozenset({"GET", "HEAD"})

    def __init__(self, app, generation):
        self.app = app
        self.generation = generation

    async def __call__(self, scope, receive, send):
        if scope.get("type") != "http":
            return await self.app(scope, receive, send)
        if scope.get("method", "").upper() in self.READS:
            # the endpoint runs in a worker thread with a copy of this context
            reading = _READING.set(True)
            try:
                return await self.app(scope, receive, send)
            finally:
                _READING.reset(reading)
        self.generation.advance()
        try:
            return await self.app(scope, receive, send)
        finally:
            self.generation.advance()


def install_kept_lookups():
    import types as pytypes

    import local_bigquery
    from local_bigquery.catalog import metadata, tabledata
    from local_bigquery.engine import database
    from local_bigquery.grpc import write
    from local_bigquery.jobs import runner

    generation = _CatalogGeneration()
    local_bigquery.app = _BumpingAsgi(local_bigquery.app, generation)
    own_submit = runner._executor.submit

    def submit(fn, *args, **kwargs):
        def in_generations(*a, **k):
            generation.advance()
            try:
                return fn(*a, **k)
            finally:
                generation.advance()

        generation.advance()
        return own_submit(in_generations, *args, **kwargs)

    runner._executor.submit = submit
    kept = {}  # (what, table) -> (generation, value)
    tables = write.tables
    own_columns, own_load = tables.columns, tables.load

    def remember(what, table, compute):
        number = generation.number
        found = kept.get((what, table))
        if found is not None and found[0] == number:
            return found[1]
        value = compute()
        if generation.number == number:
            if len(kept) > 10_000:
                kept.clear()
            kept[(what, table)] = (number, value)
        return value

    def columns(project_id, dataset_id, table_id):
        return remember("columns", (project_id, dataset_id, table_id),
                        lambda: own_columns(project_id, dataset_id, table_id))

    # REST reads (tables.get): the catalog's own load, with its columns and stored resource kept
    def read_columns(project_id, dataset_id, table_id):
        if _READING.get():
            return columns(project_id, dataset_id, table_id)
        return own_columns(project_id, dataset_id, table_id)

    own_metadata = tables.metadata

    class _ReadMetadata:
        def load(self, model, *keys):
            if _READING.get():
                return remember(("stored", model.__name__), keys,
                                lambda: own_metadata.load(model, *keys))
            return own_metadata.load(model, *keys)

        def __getattr__(self, name):
            return getattr(own_metadata, name)

    tables.columns = read_columns
    tables.metadata = _ReadMetadata()

    def load(project_id, dataset_id, table_id):
        table = (project_id, dataset_id, table_id)
        resource = remember("load", table, lambda: own_load(project_id, dataset_id, table_id))
        expiration = resource.expirationTime
        if expiration is not None and int(expiration) <= int(metadata.now()):
            kept.pop(("load", table), None)
            return own_load(project_id, dataset_id, table_id)  # drops it, raises not found
        return resource

    class _Relation:
        __slots__ = ("columns", "types")

        def __init__(self, relation):
            self.columns, self.types = list(relation.columns), list(relation.types)

    class _Cursor:
        """A cursor whose SELECT * ... LIMIT 0 (insert_all's read of the column types) is kept."""

        def __init__(self, cur):
            self.cur = cur

        def sql(self, query):
            if query.startswith("SELECT * FROM ") and query.endswith(" LIMIT 0"):
                return remember("types", query, lambda: _Relation(self.cur.sql(query)))
            return self.cur.sql(query)

        def __getattr__(self, name):
            return getattr(self.cur, name)

    class _Database:
        def __init__(self):
            import contextlib

            @contextlib.contextmanager
            def cursor():
                with database.cursor() as cur:
                    yield _Cursor(cur)

            self.cursor = cursor

        def __getattr__(self, name):
            return getattr(database, name)

    own_insert_all = tabledata.insert_all
    scope = dict(own_insert_all.__globals__)
    scope.update(columns=columns, load=load, database=_Database())
    # Read from the module at each call, not copied: the fast path's narrowed cast check replaces
    # it there, and may be installed after this copy is made (the self-test builds it later).
    scope["_unconvertible"] = lambda schema, rows: tabledata._unconvertible(schema, rows)
    tabledata.insert_all = pytypes.FunctionType(
        own_insert_all.__code__,
        scope,
        own_insert_all.__name__,
        own_insert_all.__defaults__,
        own_insert_all.__closure__,
    )
    write.tables = pytypes.SimpleNamespace(
        **{name: getattr(tables, name) for name in dir(tables) if not name.startswith("__")}
    )
    write.tables.columns = columns
    return generation


ENGINE_THREADS = int(os.environ.get("THRIFTBQ_BQ_DUCKDB_THREADS", "1"))


def install_engine_threads(threads=ENGINE_THREADS):
    """DuckDB on `threads` worker threads; returns whether it changed anything.

    Every statement local mode sends is small (an append of tens to a few thousand rows, a count,
    a table look-up), and DuckDB's own default of a thread per core spends more CPU waking and
    joining its workers than they save: a DuckLake insert of 60 nested rows costs 20-27% less CPU
    on one thread, and 500- and 2,000-row inserts run faster too (benchmarks/RESULTS.md
    section 36). A setting of the engine, not of what a statement means."""
    if threads <= 0:
        return False
    import functools

    from local_bigquery.engine import database

    # _connect is cached (functools.cache) and reset() clears that cache by name: the replacement
    # is cached the same way, so a reset connects again, on the same number of threads.
    connect = database._connect.__wrapped__

    @functools.cache
    def _connect():
        con = connect()
        con.execute(f"SET threads = {threads}")
        return con

    database._connect = _connect
    return True


def _sibling(name):
    """A module copied next to this file (BigQueryEmulator.copyLauncher copies them together)."""
    from importlib import util

    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = util.spec_from_file_location(name, here)
    module = util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def install_change_data_capture():
    """After install_fast_append: the CDC layer wraps whichever append path is in place."""
    from importlib import metadata

    version = metadata.version("local-bigquery")
    if version != FAST_APPEND_VERSION:
        print(
            f"thriftbq cdc: local-bigquery {version} is not {FAST_APPEND_VERSION}; rows with "
            "_CHANGE_TYPE are appended as the emulator appends any row",
            file=sys.stderr,
        )
        return False
    from local_bigquery.grpc import write

    _sibling("bigquery_emulator_cdc").install(write)
    return True


def main():
    install_message_limit()
    install_kept_message_classes()
    fast = os.environ.get("THRIFTBQ_BQ_FAST_APPEND", "1") != "0" and install_fast_append()
    install_change_data_capture()
    # These rely on this version's internals as the fast path does, and go with it: with
    # THRIFTBQ_BQ_FAST_APPEND=0 the emulator runs entirely its own way.
    if fast:
        install_engine_threads()
        if os.environ.get("THRIFTBQ_BQ_GROUP_APPENDS", "1") != "0":
            install_grouped_appends()
        if os.environ.get("THRIFTBQ_BQ_KEEP_LOOKUPS", "1") != "0":
            install_kept_lookups()
    from local_bigquery.cli import main as emulator

    sys.argv[0] = "local-bigquery"
    sys.exit(emulator())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
        selftest = _sibling("bigquery_emulator_selftest")
        sys.exit(selftest.run(sys.modules[__name__], sys.argv[2:]))
    if len(sys.argv) > 1 and sys.argv[1] == "--cdc-self-test":
        cdc = _sibling("bigquery_emulator_cdc")
        sys.exit(cdc.self_test(sys.modules[__name__], sys.argv[2:]))
    main()

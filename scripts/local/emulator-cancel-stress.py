"""Stress the BigQuery emulator, started through local mode's launcher, the way the emulator died
(docs/RELIABILITY.md, "The BigQuery emulator's crashes"): appends of nested rows to _default,
COMMITTED, PENDING and BUFFERED streams from many threads, more than half of them cancelled or
their connection dropped mid-stream (as a killed pipeline does), beside queries. Prints one JSON
line: whether the emulator is still alive, and what was done; its log's tail if it died.

  .local-stack/venv-bq/bin/python scripts/local/emulator-cancel-stress.py [SECONDS] [THREADS] [pure]

("pure": protobuf's pure-Python backend instead of upb.) Listens on 127.0.0.1 only, free ports;
the emulator is stopped by PID at the end."""
import json, os, random, shutil, signal, socket, subprocess, sys, tempfile, threading, time, urllib.request

launcher_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "local-mode",
    "src", "main", "resources", "io", "thriftbq", "local", "stack")
seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 120
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 8
sys.path.insert(0, launcher_dir)
import grpc
from google.cloud.bigquery_storage_v1 import types
import bigquery_emulator_selftest as st

def free():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

rest, grpc_port = free(), free()
data = tempfile.mkdtemp(prefix="upb-repro-")
env = dict(os.environ)
if len(sys.argv) > 3 and sys.argv[3] == "pure":
    env["PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION"] = "python"
log = open(os.path.join(data, "emulator.log"), "w")
proc = subprocess.Popen([sys.executable, os.path.join(launcher_dir, "bigquery-emulator-launcher.py"),
    "serve", "--host", "127.0.0.1", "--port", str(rest), "--grpc-port", str(grpc_port),
    "--project", "p", "--dataset", "d", "--data-dir", data], env=env, stdout=log, stderr=subprocess.STDOUT)
base = f"http://127.0.0.1:{rest}/bigquery/v2/projects/p"
def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"{}")
for _ in range(100):
    try:
        call("GET", "/datasets/d"); break
    except Exception:
        time.sleep(0.3)
for t in ("t0", "t1", "t2"):
    call("POST", "/datasets/d/tables", {"tableReference": {"projectId": "p", "datasetId": "d", "tableId": t},
                                       "schema": {"fields": st.SCHEMA}})
descriptor = st._descriptor()
from google.protobuf import descriptor_pool, message_factory, descriptor_pb2
fp = descriptor_pb2.FileDescriptorProto(name="r.proto", package="r"); fp.message_type.add().CopyFrom(descriptor)
pool = descriptor_pool.DescriptorPool(); pool.Add(fp)
Row = message_factory.GetMessageClass(pool.FindMessageTypeByName("r.Row"))
rng0 = random.Random(7)
rows = [st._row(rng0, Row, i, False, False) for i in range(400)]
for r in rows:
    r.req = "x"
payloads = [r.SerializeToString() for r in rows]
channel = grpc.insecure_channel(f"127.0.0.1:{grpc_port}", options=[("grpc.max_send_message_length", 20 << 20)])
append = channel.stream_stream("/google.cloud.bigquery.storage.v1.BigQueryWrite/AppendRows",
    request_serializer=types.AppendRowsRequest.serialize, response_deserializer=types.AppendRowsResponse.deserialize)
create = channel.unary_unary("/google.cloud.bigquery.storage.v1.BigQueryWrite/CreateWriteStream",
    request_serializer=types.CreateWriteStreamRequest.serialize, response_deserializer=types.WriteStream.deserialize)
stop = time.time() + seconds
counts = {"streams": 0, "cancelled": 0, "errors": 0, "queries": 0}
def worker(seed):
    rng = random.Random(seed)
    while time.time() < stop and proc.poll() is None:
        table = f"projects/p/datasets/d/tables/t{rng.randrange(3)}"
        kind = rng.choice(["default", "default", "buffered", "pending", "committed"])
        try:
            if kind == "default":
                name, use_offsets = table + "/streams/_default", False
            else:
                ws = create(types.CreateWriteStreamRequest(parent=table, write_stream=types.WriteStream(
                    type_={"buffered": 3, "pending": 2, "committed": 1}[kind])), timeout=30)
                name, use_offsets = ws.name, True
            n = rng.randrange(1, 40)
            def requests():
                off = 0
                for i in range(n):
                    size = rng.choice([1, 10, 50, 200])
                    body = {"proto_rows": {"rows": {"serialized_rows": rng.sample(payloads, size)}}}
                    if i == 0:
                        body["write_stream"] = name
                        body["proto_rows"]["writer_schema"] = {"proto_descriptor": descriptor}
                    if use_offsets:
                        body["offset"] = off
                    off += size
                    yield types.AppendRowsRequest(body)
            own = None
            if rng.random() < 0.5:  # a connection of its own, dropped mid-stream like a killed JVM
                own = grpc.insecure_channel(f"127.0.0.1:{grpc_port}")
                it = own.stream_stream("/google.cloud.bigquery.storage.v1.BigQueryWrite/AppendRows",
                    request_serializer=types.AppendRowsRequest.serialize,
                    response_deserializer=types.AppendRowsResponse.deserialize)(requests(), timeout=60)
            else:
                it = append(requests(), timeout=60)
            cut = rng.randrange(n + 1) if rng.random() < 0.6 else None
            got = 0
            for _ in it:
                got += 1
                if cut is not None and got >= cut:
                    if own is not None:
                        own.close()
                    else:
                        it.cancel()
                    counts["cancelled"] += 1; break
            if own is not None:
                own.close()
            counts["streams"] += 1
        except grpc.RpcError:
            counts["errors"] += 1
def queries():
    while time.time() < stop and proc.poll() is None:
        try:
            call("POST", "/queries", {"query": f"SELECT COUNT(*), SUM(ARRAY_LENGTH(recs)) FROM d.t{random.randrange(3)}", "useLegacySql": False})
            counts["queries"] += 1
        except Exception:
            counts["errors"] += 1
ts = [threading.Thread(target=worker, args=(i,)) for i in range(threads)] + [threading.Thread(target=queries)]
for t in ts: t.start()
for t in ts: t.join()
alive = proc.poll() is None
if alive:  # what the appends left in the tables: the stress must insert rows, not only be refused
    for t in ("t0", "t1", "t2"):
        result = call("POST", "/queries", {"query": f"SELECT COUNT(*) FROM d.{t}", "useLegacySql": False})
        counts["rows_" + t] = int(result["rows"][0]["f"][0]["v"])
print(json.dumps({"alive": alive, "returncode": proc.poll(), **counts, "log": log.name}))
if alive:
    proc.send_signal(signal.SIGTERM)
    proc.wait(30)
    shutil.rmtree(data, ignore_errors=True)
    sys.exit(0)
print(open(log.name).read()[-4000:])
sys.exit(1)

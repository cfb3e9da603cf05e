#!/usr/bin/env python3
"""Writes benchmarks/sizing/measured.tsv, the measured inputs of the 1M events/s sizing model
(docs/TUNING.md "Sizing 1M events/s: a model"), from benchmarks/profile-local.sh output
directories.

    benchmarks/sizing/collect.py DIR...        (one directory per run, in the order of the columns)
    benchmarks/sizing/collect.py --add DIR...  (keeps the runs already in measured.tsv; a run of the
                                                same step and source replaces its column)

Each DIR holds what profile-local.sh leaves (report.json, components.md, and the recording it was
made from) plus uptime.txt (`uptime` before and after the run, as benchmarks/sizing/campaign.sh
writes it) and, if the run was unusual, note.txt (one line, shown with the run).
The model and the generated doc tables read measured.tsv only (SizingModelTest).
"""
import json
import os
import re
import sys

ROW = re.compile(r"^\| (.+?) \|\s*(.*?)\s*\| ([0-9.]+)% \| \**([0-9.]+)\** \|$")
WINDOW = re.compile(r"^window \S+ \.\. \S+ \(([0-9.]+) s\), (\d+) events, (\d+) execution samples")


def tables(path):
    """The two tables of components.md: whole window, then second half."""
    result, current = [], None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = WINDOW.match(line)
        if m:
            current = {"window_s": m.group(1), "events": m.group(2), "samples": m.group(3), "rows": {}}
            result.append(current)
            continue
        m = ROW.match(line)
        if m and current is not None:
            name = m.group(1).strip("*")
            current["rows"]["total" if name == "total" else name] = float(m.group(4))
    if len(result) != 2:
        sys.exit(f"{path}: expected two tables (whole window, second half), found {len(result)}")
    return result


def source_exchange(costs):
    """Bytes per input byte the source sends to an operator it is not chained with: from Pub/Sub,
    the exchange to the de-duplication (a source task that is not chained to anything)."""
    ratio = costs["exchanged_bytes_per_input_byte"]
    by_task = costs.get("exchanged_bytes_by_sending_task", {})
    total = sum(by_task.values())
    if not ratio or not total:
        return 0.0
    alone = sum(b for task, b in by_task.items() if task.startswith("Source:") and " -> " not in task)
    return round(ratio * alone / total, 2)


def note(d):
    """DIR/note.txt, one line: what was unusual about the run (a flag, a work-around)."""
    path = os.path.join(d, "note.txt")
    return open(path, encoding="utf-8").read().strip().replace("\t", " ") if os.path.exists(path) else ""


def uptime(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    start = next(l for l in lines if l.startswith("start "))
    end = next((l for l in lines if l.startswith("end ")), "")
    rc = next((l for l in lines if l.startswith("rc=")), "rc=?")
    load = lambda l: l.split("load average:")[1].strip().replace(",", "") if "load average" in l else "?"
    return start.split()[1], load(start), load(end), rc[3:]


def read_measured(path):
    """The columns and rows of an existing measured.tsv, to add runs to it."""
    columns, rows, order = [], {}, []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#"):
            continue
        cells = line.rstrip("\n").split("\t")
        if cells[0] == "key":
            columns = cells[1:]
            continue
        rows[cells[0]] = dict(zip(columns, cells[1:]))
        order.append(cells[0])
    return columns, rows, order


def main(dirs, add=False):
    columns, rows, components, parsed = [], {}, [], {}
    order = []  # component rows in first-seen order
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "measured.tsv")
    kept = read_measured(out) if add else ([], {}, [])

    def put(key, column, value):
        if key not in rows:
            rows[key] = {}
            order.append(key)
        rows[key][column] = value

    for d in dirs:
        report = json.load(open(os.path.join(d, "report.json"), encoding="utf-8"))
        conf, costs, thr = report["configuration"], report["costs"], report["throughput"]
        column = f"{conf['step']} {conf['source']}"
        columns.append(column)
        whole, half = tables(os.path.join(d, "components.md"))
        started, load_start, load_end, rc = uptime(os.path.join(d, "uptime.txt"))
        source_cpu = costs.get("kafka_broker_cpu_sec_per_100k_events",
                               costs.get("pubsub_emulator_cpu_sec_per_100k_events"))
        for key, value in [
            ("run:step", conf["step"]),
            ("run:source", conf["source"]),
            ("run:write_method", conf["write_method"]),
            ("run:format", conf["format"]),
            ("run:started_utc", started),
            ("run:load_average_before", load_start),
            ("run:load_average_after", load_end),
            ("run:events_offered", conf["events"]),
            ("run:rate_offered", conf["rate_per_sec"]),
            ("run:result", report["status"] + ("" if rc == "0" else f" (exit {rc})")),
            ("run:note", note(d)),
            ("run:rows_per_s_sustained", thr["rows_per_sec_sustained"]),
            ("run:pipeline_us_per_event_runcosts", round(costs["pipeline_cpu_sec_per_100k_events"] * 10, 1)),
            ("run:source_us_per_event", round(source_cpu * 10, 1) if source_cpu is not None else ""),
            ("run:bigquery_emulator_us_per_event",
             round(costs["bigquery_emulator_cpu_sec_per_100k_events"] * 10, 1)),
            ("run:encoded_bytes_per_element", costs["encoded_bytes_per_element"]),
            ("run:exchanged_bytes_per_input_byte", costs["exchanged_bytes_per_input_byte"]),
            ("run:source_exchange_bytes_per_input_byte", source_exchange(costs)),
            ("run:whole_window_s", whole["window_s"]),
            ("run:whole_window_events", whole["events"]),
            ("run:whole_window_samples", whole["samples"]),
            ("run:half_window_s", half["window_s"]),
            ("run:half_window_events", half["events"]),
            ("run:half_window_samples", half["samples"]),
        ]:
            put(key, column, value)
        for table in (whole, half):
            for name in table["rows"]:
                if name != "total" and name not in components:
                    components.append(name)
        parsed[column] = (whole["rows"], half["rows"])

    # Every component in every run and window (the analysis leaves out rows that are empty).
    for window, index in (("whole", 0), ("half", 1)):
        for name in components + ["total"]:
            for column in columns:
                put(f"{window}:{name}", column, parsed[column][index].get(name, 0.0))

    if add:
        # Earlier runs first, as they were; a component only one side has is 0 on the other.
        old_columns, old_rows, old_order = kept
        for key in old_order:
            if key not in rows:
                rows[key] = {}
        for key in order:
            if key not in old_rows:
                old_rows[key] = {}
        order = [k for k in old_order if k.startswith("run:")] + \
            [k for k in order if k.startswith("run:") and k not in old_order] + \
            [k for k in old_order if not k.startswith("run:")] + \
            [k for k in order if not k.startswith("run:") and k not in old_order]
        for key in order:
            blank = "" if key.startswith("run:") else 0.0
            merged = {c: old_rows[key].get(c, blank) for c in old_columns}
            merged.update({c: rows[key].get(c, blank) for c in columns})
            rows[key] = merged
        columns = old_columns + [c for c in columns if c not in old_columns]
    # run:*, then each window's components with its total last, as the tables read them
    order = [k for k in order if k.startswith("run:")] + [
        k for w in ("whole:", "half:") for k in
        [k for k in order if k.startswith(w) and k != w + "total"] + [w + "total"]]
    with open(out, "w", encoding="utf-8") as f:
        f.write("# Measured inputs of the 1M events/s sizing model (docs/TUNING.md \"Sizing 1M events/s: a\n"
                "# model\"; benchmarks/RESULTS.md section 10). WRITTEN BY benchmarks/sizing/collect.py from\n"
                "# benchmarks/profile-local.sh runs (commands: benchmarks/sizing/campaign.sh); do not edit.\n"
                "# One column per run (\"STEP SOURCE\"). run:* describe the run; whole:* and half:* are the\n"
                "# pipeline JVM's CPU in µs per event by component (benchmarks/profile/components.tsv) over the\n"
                "# whole window and over its second half.\n")
        f.write("\t".join(["key"] + columns) + "\n")
        for key in order:
            f.write("\t".join([key] + [str(rows[key].get(c, "")) for c in columns]) + "\n")
    print(f"wrote {out}: {len(columns)} runs, {len(order)} rows")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(2)
    if sys.argv[1] == "--add":
        main(sys.argv[2:], add=True)
    else:
        main(sys.argv[1:])

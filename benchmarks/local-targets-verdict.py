"""The verdict of benchmarks/local-targets.sh: issue 32's local-mode targets, each with the figures
of every run, their median, and "met" or "NOT MET" (a target is met when the median of its runs
is, and every one of its runs ended OK).

  python3 benchmarks/local-targets-verdict.py --out DIR [--slow-end-factor F]

DIR holds runs.tsv (round source target offered_rate report.json), ceilings.tsv (round source
when rows_per_request per_second) and lock.txt (the lock check's output, its exit status last), as
local-targets.sh writes them. Prints a Markdown table; exits
0 when every target is met, 1 otherwise.

The figures, as benchmarks/RESULTS.md and docs/LOCAL.md define them: p99 is the report's latency
after the warm-up; "steady" is its rate over the steady window; a run's cores are the whole stack's
(pipeline, the source's server, the BigQuery emulator): the sum of their CPU-s per 100k events
times the steady rate; at the slow end they are given in the slow machine's own cores, cores x
(the round's mean slowed ceiling / F) / 1670. Step 8 at saturation is measured against the mean of
the ceilings just before and just after it; step 6's rate is shown beside the mean of the ceilings
just before and just after it (half of it is the target's rate)."""
import argparse
import json
import operator
import statistics
import sys

# The slowest machine of the class seen: its append ceiling at 500 rows per request (issue 32).
SLOW_END_CEILING = 1670

# Issue 32's targets: (the runs of local-targets.sh, what, figure, comparison, threshold); a
# target is met when the median of its runs' figure compares so with the threshold.
BELOW, AT_MOST, AT_LEAST = operator.lt, operator.le, operator.ge
TARGETS = [
    ("default", "the default run: p99 after warm-up < 1 s", "p99_s", BELOW, 1.0),
    ("default", "the default run: the whole stack <= 1 core", "cores", AT_MOST, 1.0),
    ("structs-attribute", "three structs by attribute, step 8, 300/s: steady >= 0.95x offered",
     "steady_ratio", AT_LEAST, 0.95),
    ("structs-attribute", "three structs by attribute, step 8, 300/s: p99 < 2 s", "p99_s", BELOW,
     2.0),
    ("structs-union", "three structs by union, step 7, kept payloads, 300/s: steady >= 0.95x offered",
     "steady_ratio", AT_LEAST, 0.95),
    ("structs-union", "three structs by union, step 7, kept payloads, 300/s: p99 < 2 s", "p99_s",
     BELOW, 2.0),
    ("saturation-step8", "step 8 at saturation >= 0.8x the append ceiling", "ceiling_ratio",
     AT_LEAST, 0.8),
    ("half-ceiling-step6", "step 6 at half the append ceiling: p99 < 2 s", "p99_s", BELOW, 2.0),
]
# The append ceiling at 10 rows per request against the one at 500.
SMALL_APPENDS_AT_LEAST = 0.5


def read_tsv(path):
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def ceilings_of(rows):
    """{(round, source): {when: {rows_per_request: per_second}}}"""
    found = {}
    for round_, source, when, size, per_second in rows:
        found.setdefault((round_, source), {}).setdefault(when, {})[size] = float(per_second)
    return found


def figures_of(report, target, offered, ceilings, slow_end_factor):
    """The run's figures for its target, or a reason it has none."""
    if report.get("status") != "OK":
        return None, f"run {report.get('status', 'without a report')}"
    figures = {}
    latency = report.get("latency_ms", {}).get("after_warmup", {})
    if latency.get("samples"):
        figures["p99_s"] = latency["p99"] / 1000.0
    steady = report.get("throughput", {}).get("rows_per_sec_steady")
    if steady is not None:
        figures["steady_ratio"] = steady / offered
    costs = report.get("costs", {})
    parts = [
        costs.get("pipeline_cpu_sec_per_100k_events"),
        costs.get("pubsub_emulator_cpu_sec_per_100k_events",
                  costs.get("kafka_broker_cpu_sec_per_100k_events")),
        costs.get("bigquery_emulator_cpu_sec_per_100k_events"),
    ]
    if steady is not None and all(isinstance(p, (int, float)) for p in parts):
        cores = sum(parts) * steady / 100_000
        if slow_end_factor:
            at_500 = [c["500"] for c in ceilings.values() if "500" in c]
            if at_500:
                cores *= statistics.mean(at_500) / slow_end_factor / SLOW_END_CEILING
            else:
                cores = None
        if cores is not None:
            figures["cores"] = cores
    if target == "saturation-step8" and steady is not None:
        around = [ceilings.get(w, {}).get("500") for w in ("before-saturation", "after-saturation")]
        around = [c for c in around if c]
        if around:
            figures["ceiling_ratio"] = steady / statistics.mean(around)
    if target == "half-ceiling-step6":
        around = [ceilings.get(w, {}).get("500") for w in ("after-saturation", "after-step6")]
        around = [c for c in around if c]
        if around:
            figures["rate_of_ceiling"] = offered / statistics.mean(around)
    return figures, None


def verdict(out_dir, slow_end_factor):
    ceilings = ceilings_of(read_tsv(f"{out_dir}/ceilings.tsv"))
    runs = read_tsv(f"{out_dir}/runs.tsv")
    lines = [
        "| target | source | figures (round by round) | median | verdict |",
        "|---|---|---|---:|---|",
    ]
    all_met = True
    sources = list(dict.fromkeys(source for _, source, *_ in runs))
    for key, what, figure, compare, threshold in TARGETS:
        for source in sources:
            values, notes, problems = [], [], []
            for round_, run_source, target, offered, path in runs:
                if run_source != source or target != key:
                    continue
                try:
                    with open(path) as f:
                        report = json.load(f)
                except (OSError, ValueError):
                    report = {"status": "without a report"}
                figures, problem = figures_of(
                    report, key, float(offered), ceilings.get((round_, source), {}),
                    slow_end_factor)
                if problem:
                    problems.append(f"round {round_}: {problem}")
                elif figure not in figures:
                    problems.append(f"round {round_}: no {figure} (run too short?)")
                else:
                    values.append(figures[figure])
                    # Step 6's rate was set from the ceiling: show it, and what it was of the
                    # ceilings measured around the run, beside its p99.
                    note = ""
                    if key == "half-ceiling-step6":
                        note = f" at {float(offered):,.0f}/s"
                        if "rate_of_ceiling" in figures:
                            note += f" ({figures['rate_of_ceiling']:.2f} of the ceiling)"
                    notes.append(note)
            if not values and not problems:
                continue
            median = statistics.median(values) if values else None
            met = median is not None and not problems and compare(median, threshold)
            all_met &= met
            shown = ", ".join(f"{v:.2f}{n}" for v, n in zip(values, notes)) or "-"
            if problems:
                shown += " (" + "; ".join(problems) + ")"
            lines.append(f"| {what} | {source} | {shown} | "
                         f"{'-' if median is None else f'{median:.2f}'} | "
                         f"{'met' if met else 'NOT MET'} |")
    ratios = []
    for (round_, source), by_when in sorted(ceilings.items()):
        for when, sizes in by_when.items():
            if "10" in sizes and sizes.get("500"):
                ratios.append((source, sizes["10"] / sizes["500"]))
    for source in dict.fromkeys(s for s, _ in ratios):
        values = [r for s, r in ratios if s == source]
        median = statistics.median(values)
        met = median >= SMALL_APPENDS_AT_LEAST
        all_met &= met
        lines.append(f"| the append ceiling at 10 rows per request >= 0.5x at 500 | {source} | "
                     f"{', '.join(f'{v:.2f}' for v in values)} | {median:.2f} | "
                     f"{'met' if met else 'NOT MET'} |")
    try:
        with open(f"{out_dir}/lock.txt") as f:
            lock = f.read().strip().splitlines() or ["1"]
    except OSError:
        lock = ["(not checked)", "1"]
    met = lock[-1] == "0"
    all_met &= met
    lines.append(f"| a fresh install holds the lock's package versions | - | "
                 f"{' '.join(lock[:-1]) or '-'} | - | {'met' if met else 'NOT MET'} |")
    at_500 = [sizes["500"] for by_when in ceilings.values() for sizes in by_when.values()
              if "500" in sizes]
    where = (f"at the slow end (factor {slow_end_factor}; cores in the slow machine's own, "
             "an estimate)" if slow_end_factor else "on this machine")
    print(f"Issue 32's local-mode targets {where}; append ceiling at 500 rows per request "
          f"{min(at_500, default=0):,.0f}-{max(at_500, default=0):,.0f} rows/s over the runs.")
    print()
    print("\n".join(lines))
    print()
    print("Every target met." if all_met else "Some target is NOT MET (see above).")
    return all_met


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="the directory local-targets.sh wrote")
    parser.add_argument("--slow-end-factor", type=float, default=None,
                        help="the factor the runs were slowed with (benchmarks/slow-end.sh)")
    args = parser.parse_args()
    sys.exit(0 if verdict(args.out, args.slow_end_factor) else 1)


if __name__ == "__main__":
    main()

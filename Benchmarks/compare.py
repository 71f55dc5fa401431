#!/usr/bin/env python3
"""Runs the Benchmarks package once and prints Sluice next to its peers.

    python3 Benchmarks/compare.py                      # all suites, table on stdout
    python3 Benchmarks/compare.py --target Core        # one suite
    python3 Benchmarks/compare.py --runs 3             # 3 runs: the median of their medians
    python3 Benchmarks/compare.py --ci --check-allocations   # what .ci/run does
    python3 Benchmarks/compare.py --ci --runs 7 --update-allocations # rewrite the committed thresholds

Every benchmark is named "<workload> | <contender> (elements: N)" (see Support/Harness.swift).
From package-benchmark's text report this script takes, per benchmark, the median (p50)
wall-clock time and malloc count of one iteration, divides both by N, and prints per workload each contender's ns/element, Sluice's time divided by the
contender's (below 1: Sluice is faster) and allocations per element. Memory workloads also show
peak resident memory and, next to it, the difference from the workload's "baseline: …" contender.

--runs K runs package-benchmark K times, one process after another, and prints for each row the
median of the K runs' medians and, in a last column, their range. On a shared machine whole runs
land in slow or fast phases (see README.md), so one run's median can be off by half; the range
shows how far.

--check-allocations fails (exit 1) when a Sluice benchmark's mallocs per iteration are not
within its count in Benchmarks/Thresholds/allocations.json plus or minus its tolerance (too
few fails too, so a broken malloc counter cannot pass), or it has no entry there. The counts
are for --ci mode (the memory workload moves fewer elements there).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
THRESHOLDS = os.path.join(HERE, "Thresholds", "allocations.json")
SLUICE = "Sluice"
NAME = re.compile(r"^(?P<workload>.+) \| (?P<contender>.+?) \(elements: (?P<n>\d+)\)$")


def run_benchmarks(targets, ci, filter_regex):
    """Runs package-benchmark (its text tables echoed to stderr) and returns that text."""
    cmd = ["swift", "package", "--package-path", HERE, "benchmark", "--no-progress"]
    for target in targets:
        cmd += ["--target", target]
    if filter_regex:
        cmd += ["--filter", filter_regex]
    env = dict(os.environ)
    if ci:
        env["SLUICE_BENCH_CI"] = "1"
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True)
    sys.stderr.write(proc.stdout)
    if proc.returncode != 0:
        sys.exit(f"the benchmark run failed (exit {proc.returncode})")
    return proc.stdout


METRICS = {"Time (wall clock)": "wall_ns", "Malloc (total)": "mallocs", "Memory (resident peak)": "rss"}


def parse(text):
    """[(target, workload, contender, n, ns/element, mallocs/iteration, peak RSS bytes)]

    Reads package-benchmark's text report: a target's name underlined with '=', each
    benchmark's name, then a table whose rows are '│ <metric> (<unit>) * │ p0 │ p25 │ p50 │ …'.
    Harness.swift makes time nanoseconds and counts unscaled, so p50 is read as it is.
    """
    rows, target, current = [], None, None
    lines = text.splitlines()

    def flush():
        if current and "wall_ns" in current:
            c = current
            rows.append((c["target"], c["workload"], c["contender"], c["n"], c["wall_ns"] / c["n"],
                         c.get("mallocs"), c.get("rss")))

    for i, line in enumerate(lines):
        stripped = line.strip()
        if i + 1 < len(lines) and lines[i + 1].startswith("===") and stripped and not stripped.startswith("="):
            target = stripped
            continue
        m = NAME.match(stripped)
        if m:
            flush()
            current = {"target": target, "workload": m["workload"], "contender": m["contender"], "n": int(m["n"])}
            continue
        if current and stripped.startswith("│"):
            cells = [c.strip() for c in stripped.strip("│").split("│")]
            key = next((v for k, v in METRICS.items() if cells[0].startswith(k)), None)
            if key and len(cells) > 3:
                current[key] = float(cells[3].replace(",", ""))
    flush()
    return rows


def machine():
    """One line naming when and where the run happened, for the README's table."""
    os_name = " ".join(os.uname()[i] for i in (0, 2))
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    os_name = line.split("=", 1)[1].strip().strip('"')
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout
    swift = swift.splitlines()[0] if swift else "swift ?"
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores "
            f"({os.uname().machine}), {os_name}, {swift}")


def fmt(x, digits=1):
    if x is None:
        return "—"
    return f"{x:,.{digits}f}"


def combine(runs):
    """One row per benchmark from several runs' rows: the median of each figure, and
    {row key: (fastest, slowest) ns/element} over the runs."""
    by_key = {}
    for rows in runs:
        for r in rows:
            by_key.setdefault(r[:4], []).append(r)
    combined, ranges = [], {}
    for key, found in by_key.items():
        def median(index):
            values = sorted(r[index] for r in found if r[index] is not None)
            if not values:
                return None
            middle = len(values) // 2
            return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2
        combined.append(key + (median(4), median(5), median(6)))
        ranges[key] = (min(r[4] for r in found), max(r[4] for r in found))
    return combined, ranges


def table(rows, ranges=None):
    """The comparison table; with `ranges` (several runs) a last column shows each row's."""
    header = "| workload | contender | ns/element (median) | Sluice ÷ contender | allocs/element | peak RSS |"
    rule = "|---|---|---:|---:|---:|---:|"
    if ranges:
        header += " ns/element, range over runs |"
        rule += "---:|"
    lines = [header, rule]
    workloads = sorted({(r[0], r[1]) for r in rows})
    for target, workload in workloads:
        group = [r for r in rows if (r[0], r[1]) == (target, workload)]
        group.sort(key=lambda r: (r[2] != SLUICE, r[4] or 0))
        sluice = next((r for r in group if r[2] == SLUICE), None)
        # A contender named "baseline: …" (the memory workload's plain loop): peaks also show
        # their difference from its peak, the figure issue 3 F bounds.
        baseline_rss = next((r[6] for r in group if r[2].startswith("baseline") and r[6]), None)
        for (_, _, contender, n, ns, mallocs, rss) in group:
            ratio = None
            if sluice and sluice[4] is not None and ns and not contender.startswith(SLUICE):
                ratio = sluice[4] / ns
            allocs = None if mallocs is None else mallocs / n
            peak = "—" if rss is None else f"{rss / 1_048_576:,.1f} MiB"
            if rss is not None and baseline_rss and not contender.startswith("baseline"):
                peak += f" ({(rss - baseline_rss) / 1_048_576:+,.1f})"
            line = (f"| {target}: {workload} (N = {n:,}) | {contender} | {fmt(ns)} | "
                    f"{'—' if ratio is None else f'{ratio:.3g}'} | {fmt(allocs, 3)} | {peak} |")
            if ranges:
                fastest, slowest = ranges[(target, workload, contender, n)]
                line += f" {fmt(fastest)} to {fmt(slowest)} |"
            lines.append(line)
    return "\n".join(lines)


def sluice_mallocs(rows):
    """{"<target>: <workload> | <contender>": (mallocs per iteration, elements per iteration)}"""
    return {f"{r[0]}: {r[1]} | {r[2]}": (r[5], r[3]) for r in rows if r[2].startswith(SLUICE) and r[5] is not None}


def tolerance(mallocs, spread=0):
    """Allowed drift of a row's mallocs per iteration either way: a few allocations (a task
    that suspends once more or less allocates a frame), or 2% of a large count, or twice the
    spread seen over the runs that measured it (a workload whose tasks suspend a
    timing-dependent number of times, like the slow consumer of the Memory suite). Per
    iteration, not per element: one extra allocation per element is 100,000 more and fails."""
    return max(4, int(mallocs * 0.02), 2 * int(math.ceil(spread)))


def check_allocations(rows):
    """Each Sluice row's mallocs per iteration must be within its committed count ± its
    tolerance. Too few fails too: a malloc counter that reads 0 (or a benchmark that stopped
    doing its work) must not pass."""
    with open(THRESHOLDS) as f:
        committed = json.load(f)["mallocsPerIteration"]
    failures = []
    measured = sluice_mallocs(rows)
    for key, (mallocs, _) in sorted(measured.items()):
        entry = committed.get(key)
        if entry is None:
            failures.append(f"{key}: no count committed (measured {mallocs:,.0f} mallocs/iteration)")
            continue
        expected, slack = entry["mallocs"], entry["tolerance"]
        if mallocs > expected + slack:
            failures.append(f"{key}: {mallocs:,.0f} mallocs/iteration, more than {expected:,} + {slack:,}")
        elif mallocs < expected - slack:
            failures.append(f"{key}: {mallocs:,.0f} mallocs/iteration, fewer than {expected:,} - {slack:,} "
                            "(is the malloc counter working?)")
        else:
            print(f"ok  {key}: {mallocs:,.0f} mallocs/iteration (committed {expected:,} ± {slack:,})")
    for key in sorted(set(committed) - set(measured)):
        failures.append(f"{key}: count committed but the benchmark did not run")
    for failure in failures:
        print("FAIL " + failure)
    return not failures


def update_allocations(rows, runs):
    """Writes each Sluice row's median count, with a tolerance that covers the spread over
    `runs` (use --runs 5 or more, so a timing-dependent row shows its spread)."""
    measured = sluice_mallocs(rows)
    seen = {}
    for run in runs:
        for key, (mallocs, _) in sluice_mallocs(run).items():
            seen.setdefault(key, []).append(mallocs)
    with open(THRESHOLDS) as f:
        committed = json.load(f)["mallocsPerIteration"]

    def entry(key, mallocs):
        # A row that did not move keeps a wider tolerance it had: one set of runs can show
        # less spread than an earlier one did.
        slack = tolerance(mallocs, max(seen[key]) - min(seen[key]))
        old = committed.get(key)
        if old is not None and abs(mallocs - old["mallocs"]) <= old["tolerance"]:
            slack = max(slack, old["tolerance"])
        return {"mallocs": int(round(mallocs)), "tolerance": slack}

    counts = {k: entry(k, m) for k, (m, _) in sorted(measured.items())}
    os.makedirs(os.path.dirname(THRESHOLDS), exist_ok=True)
    with open(THRESHOLDS, "w") as f:
        json.dump({"comment": "Written by `python3 Benchmarks/compare.py --ci --filter '.*\\| Sluice.*' "
                              "--runs 7 --update-allocations`: the median mallocs per iteration of each Sluice "
                              "benchmark in --ci mode, and how far a run may drift from it either way.",
                   "mallocsPerIteration": counts}, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(counts)} counts to {THRESHOLDS}")


def self_test():
    """The allocation check against broken measurements (mutants), from the committed counts:
    the counts themselves pass; one row that allocates once more per element than its
    tolerance allows fails; a malloc counter that reads 0 everywhere fails; a row missing
    from the run fails. Runs no benchmark."""
    with open(THRESHOLDS) as f:
        committed = json.load(f)["mallocsPerIteration"]

    def rows_from(counts):
        rows = []
        for key, mallocs in counts.items():
            target, rest = key.split(": ", 1)
            workload, contender = rest.rsplit(" | ", 1)
            rows.append((target, workload, contender, None, None, mallocs))
        return rows

    exact = {key: entry["mallocs"] for key, entry in committed.items()}
    heavier = max(committed, key=lambda key: committed[key]["mallocs"])
    cases = [
        ("the committed counts", exact, True),
        (f"one more allocation than allowed in {heavier}",
         {**exact, heavier: exact[heavier] + committed[heavier]["tolerance"] + 1}, False),
        ("a counter that reads 0", {key: 0 for key in exact}, False),
        ("a row that did not run", {key: m for key, m in exact.items() if key != heavier}, False),
    ]
    failed = False
    for name, counts, should_pass in cases:
        print(f"-- self-test: {name} (must {'pass' if should_pass else 'fail'})")
        if check_allocations(rows_from(counts)) != should_pass:
            print(f"SELF-TEST FAILED: the check did not {'pass' if should_pass else 'fail'} for {name}")
            failed = True
    if failed:
        sys.exit(1)
    print("self-test: the allocation check passes the committed counts and catches each broken measurement")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", action="append", default=[], help="a suite: Core, Bridge, Memory")
    parser.add_argument("--filter", help="regex on benchmark names, passed to package-benchmark")
    parser.add_argument("--ci", action="store_true", help="few iterations, small memory workloads")
    parser.add_argument("--check-allocations", action="store_true")
    parser.add_argument("--update-allocations", action="store_true")
    parser.add_argument("--runs", type=int, default=1, help="run K times; print the median of the medians")
    parser.add_argument("--self-test", action="store_true",
                        help="check the allocation check against broken measurements; runs no benchmark")
    args = parser.parse_args()
    if args.self_test:
        self_test()
        return
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    started = machine()
    runs = [parse(run_benchmarks(args.target, args.ci, args.filter)) for _ in range(args.runs)]
    rows, ranges = combine(runs) if args.runs > 1 else (runs[0], None)
    runs_note = f", median of {args.runs} runs" if args.runs > 1 else ""
    print(f"Run {started}{' (--ci)' if args.ci else ''}{runs_note}:\n")
    print(table(rows, ranges))
    if args.update_allocations:
        update_allocations(rows, runs)
    if args.check_allocations and not check_allocations(rows):
        sys.exit(1)


if __name__ == "__main__":
    main()

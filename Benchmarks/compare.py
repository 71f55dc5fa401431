#!/usr/bin/env python3
"""Runs the Benchmarks package and prints Sluice next to its peers.

    python3 Benchmarks/compare.py                      # all suites, table on stdout
    python3 Benchmarks/compare.py --target Core        # one suite: Core, Bridge or Memory
    python3 Benchmarks/compare.py --filter '.*PassthroughSubject.*'   # the rows whose name matches
    python3 Benchmarks/compare.py --runs 3             # 3 runs: the median of their medians
    python3 Benchmarks/compare.py --summary            # the README's summary rows, and rewrite it
    python3 Benchmarks/compare.py --ci --check-allocations   # what .ci/run does
    python3 Benchmarks/compare.py --ci --runs 7 --update-allocations # rewrite the committed thresholds

How long: on a fresh clone the first run builds package-benchmark, OpenCombine,
swift-async-algorithms and Sluice in release mode (about 4 minutes on 2 cores); then a full run
takes about 3 minutes (each benchmark runs for up to 2 seconds; the Memory suite moves 10,000,000
elements per iteration), `--target Core` about 1, `--summary` about 1, `--ci` about 1. While it
runs, progress goes to stderr: the build's steps, then each suite as it starts and ends, with
the elapsed time and an estimate of what is left, and a line every 20 seconds.

Every run also writes its table to Benchmarks/.build-results/last-run.md and its rows (with the
machine, the date and the command) to last-run.json; `--summary` writes them to
Benchmarks/Results/summary.md and summary.json, which are committed, and puts the table in
README.md between the `benchmark-summary` markers.

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
import contextlib
import io
import json
import math
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
THRESHOLDS = os.path.join(HERE, "Thresholds", "allocations.json")
SLUICE = "Sluice"
NAME = re.compile(r"^(?P<workload>.+) \| (?P<contender>.+?) \(elements: (?P<n>\d+)\)$")


ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
BUILD_STEP = re.compile(r"^\[(\d+)/(\d+)\] ")
PROGRESS_NAME = re.compile(r"\| (?P<target>[A-Za-z]+):(?P<name>.+ \| .+?)(?: \(elements: \d+\))?\s*$")


def clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


class Progress:
    """What the run is doing, on stderr: the build's steps (at most one line every 5 s), each
    suite as it starts and ends with an estimate of the time left, and a line every 20 s of
    silence. package-benchmark hands over a suite's output only when the suite is done, so the
    estimate inside a suite comes from the time per benchmark measured so far (or a first guess)."""

    def __init__(self, seconds_per_benchmark):
        self.started = time.monotonic()
        self.last_said = self.started
        self.last_build_line = 0.0
        self.seconds_per_benchmark = seconds_per_benchmark
        self.measured = (0, 0.0)  # benchmarks finished, seconds they took
        self.left = 0  # benchmarks still to run, the current suite's included
        self.suite = None
        self.suite_started = None
        self.counts = None  # {suite: benchmarks that run}, from the first run's listing
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        threading.Thread(target=self._heartbeat, daemon=True).start()

    def say(self, text):
        with self.lock:
            self.last_said = time.monotonic()
            print(f"[{clock(self.last_said - self.started)}] {text}", file=sys.stderr, flush=True)

    def build_line(self, line):
        step = BUILD_STEP.match(line)
        if step is None:
            if line.startswith(("Building", "Build complete", "error:", "warning:")) or "error:" in line:
                self.say(line)
            return
        now = time.monotonic()
        if now - self.last_build_line >= 5 or step[1] == step[2]:
            self.last_build_line = now
            self.say(f"building: step {step[1]} of {step[2]}")

    def per_benchmark(self):
        done, seconds = self.measured
        return seconds / done if done else self.seconds_per_benchmark

    def estimate_left(self):
        left = self.left * self.per_benchmark()
        if self.suite_started is not None:
            left = max(left - (time.monotonic() - self.suite_started), 0)
        return clock(left)

    def suite_starts(self, suite, count, label):
        self.suite, self.suite_started = suite, time.monotonic()
        scope = " of this run" if label else ""
        self.say(f"running {suite}{label}: {count} benchmarks, about {self.estimate_left()} left{scope}")

    def suite_ends(self, count):
        took = time.monotonic() - self.suite_started
        done, seconds = self.measured
        self.measured = (done + count, seconds + took)
        self.left -= count
        self.suite_started = None
        self.say(f"{self.suite} done: {count} benchmarks in {clock(took)}"
                 + (f", about {self.estimate_left()} left" if self.left > 0 else ""))

    def _heartbeat(self):
        while not self.stopped.wait(5):
            with self.lock:
                quiet = time.monotonic() - self.last_said
            if quiet >= 20:
                where = f" ({self.suite}, about {self.estimate_left()} left)" if self.suite_started else ""
                self.say(f"still working{where}")


def stream(cmd, env, on_line):
    """Runs cmd, handing each line of its stdout (ANSI codes removed) to on_line; its stderr
    goes straight through. Exits the script if cmd fails."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True, errors="replace")
    for raw in proc.stdout:
        on_line(ANSI.sub("", raw.rstrip("\n")))
    if proc.wait() != 0:
        sys.exit(f"`{' '.join(cmd)}` failed (exit {proc.returncode})")


def benchmark_command(targets, filter_regex, command):
    cmd = ["swift", "package", "--package-path", HERE, "benchmark"] + ([command] if command else [])
    for target in targets:
        cmd += ["--target", target]
    if filter_regex:
        cmd += ["--filter", filter_regex]
    return cmd


def count_benchmarks(targets, filter_regex, progress, env):
    """Builds the package (showing its progress) and returns {suite: benchmarks that will run}."""
    counts, target, target_header = {}, None, re.compile(r"^Target '(?P<target>[^']+)' available benchmarks:$")

    def on_line(line):
        nonlocal target
        stripped = line.strip()
        header = target_header.match(stripped)
        if header:
            target = header["target"]
            counts.setdefault(target, 0)
        elif target and stripped:
            name = re.sub(r" \(elements: \d+\)$", "", stripped)
            if not filter_regex or re.fullmatch(filter_regex, name):
                counts[target] += 1
        elif target is None:
            progress.build_line(stripped)

    progress.say("building the Benchmarks package (release; the first build takes a few minutes)")
    stream(benchmark_command(targets, None, "list"), env, on_line)
    return {suite: count for suite, count in counts.items() if count}


def run_benchmarks(targets, ci, filter_regex, progress, run_label=""):
    """Runs package-benchmark, one suite at a time, and returns its text report."""
    env = dict(os.environ)
    if ci:
        env["SLUICE_BENCH_CI"] = "1"
    # The same suites run each time: listed (and built) once.
    counts = progress.counts = progress.counts or count_benchmarks(targets, filter_regex, progress, env)
    if not counts:
        sys.exit(f"no benchmark matches --filter {filter_regex!r}")
    progress.left = sum(counts.values())
    report = []
    for suite, count in counts.items():
        progress.suite_starts(suite, count, run_label)
        stream(benchmark_command([suite], filter_regex, None), env,
               lambda line: None if (PROGRESS_NAME.search(line) and "%" in line) else report.append(line))
        progress.suite_ends(count)
    return "\n".join(report)


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


def bounds(entry):
    """The fewest and most mallocs per iteration a row may make: its count minus and plus its
    tolerance, except that a row of 8 or more never goes below a quarter of its count, so that a
    wide tolerance (a timing-dependent row) still fails a counter that reads 0 or a benchmark
    that stopped doing its work."""
    expected, slack = entry["mallocs"], entry["tolerance"]
    low = expected - slack
    if expected >= 8:
        low = max(low, math.ceil(expected / 4))
    return max(low, 0), expected + slack


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
        low, high = bounds(entry)
        if mallocs > high:
            failures.append(f"{key}: {mallocs:,.0f} mallocs/iteration, more than {high:,}")
        elif mallocs < low:
            failures.append(f"{key}: {mallocs:,.0f} mallocs/iteration, fewer than {low:,} "
                            "(is the malloc counter working?)")
        else:
            print(f"ok  {key}: {mallocs:,.0f} mallocs/iteration ({low:,} to {high:,})")
    for key in sorted(set(committed) - set(measured)):
        failures.append(f"{key}: count committed but the benchmark did not run")
    for failure in failures:
        print("FAIL " + failure)
    return not failures


def update_allocations(rows, runs):
    """Writes each Sluice row's median count, with a tolerance that covers the spread over
    `runs` (use --runs 5 or more, so a timing-dependent row shows its spread); the rows the run
    did not measure keep theirs."""
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

    # Rows this run did not measure (a --filter run) keep their committed counts.
    counts = dict(sorted({**committed, **{k: entry(k, m) for k, (m, _) in measured.items()}}.items()))
    os.makedirs(os.path.dirname(THRESHOLDS), exist_ok=True)
    with open(THRESHOLDS, "w") as f:
        json.dump({"comment": "Written by `python3 Benchmarks/compare.py --ci --filter '.*\\| Sluice.*' "
                              "--runs 7 --update-allocations`: the median mallocs per iteration of each Sluice "
                              "benchmark in --ci mode, and how far a run may drift from it either way.",
                   "mallocsPerIteration": counts}, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(measured)} counts (of {len(counts)}) to {THRESHOLDS}")


def self_test():
    """The allocation check against broken measurements (mutants), from the committed counts:
    the counts themselves pass; each row one malloc above its upper bound fails, and each row
    one below its lower bound fails (a row whose lower bound is 0 cannot go below it: those are
    the rows of fewer than 8 mallocs, listed); a malloc counter that reads 0 everywhere fails;
    a row missing from the run fails. Runs no benchmark."""
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
    cases = [("the committed counts", exact, True)]
    unbounded_below = []
    for key, entry in sorted(committed.items()):
        low, high = bounds(entry)
        cases.append((f"{key}: {high + 1:,}, one above its bound", {**exact, key: high + 1}, False))
        if low > 0:
            cases.append((f"{key}: {low - 1:,}, one below its bound", {**exact, key: low - 1}, False))
        else:
            unbounded_below.append(key)
    some_row = next(iter(sorted(exact)))
    cases += [
        ("a counter that reads 0", {key: 0 for key in exact}, False),
        ("a row that did not run", {key: m for key, m in exact.items() if key != some_row}, False),
    ]
    failed = []
    with contextlib.redirect_stdout(io.StringIO()):
        for name, counts, should_pass in cases:
            if check_allocations(rows_from(counts)) != should_pass:
                failed.append(f"the check did not {'pass' if should_pass else 'fail'} for {name}")
    for failure in failed:
        print("SELF-TEST FAILED: " + failure)
    if failed:
        sys.exit(1)
    print(f"self-test: the allocation check passes the committed counts and fails each of "
          f"{len(cases) - 1} broken measurements (every row above and, where its lower bound is above 0, "
          f"below it; a counter that reads 0; a missing row)")
    if unbounded_below:
        print(f"rows that may read 0 (fewer than 8 mallocs, tolerance reaching 0): {len(unbounded_below)}")


RESULTS = os.path.join(HERE, ".build-results")
SUMMARY = os.path.join(HERE, "Results")
README = os.path.join(os.path.dirname(HERE), "README.md")
# The README's summary: one workload per question a user asks ("is the core fast", "are the
# subjects", "is the bridge"), each with its closest peer.
SUMMARY_ROWS = [
    r"\(0\.\.<N\)\.publisher → sink",
    r"\(0\.\.<N\)\.publisher, a chain of ten operators → sink",
    r"PassthroughSubject\.send → sink",
    r"PassthroughSubject\.share\(\) → 4 sinks \(time per send\)",
    r"Just\(i\) → sink, one subscription per element",
    r"subscribe \+ cancel a sink on a PassthroughSubject with 16,000 live sinks \(time per pair\)",
    r"\(0\.\.<N\)\.publisher\.receive\(on: serial DispatchQueue\) → sink",
    r"for await over \(0\.\.<N\)\.publisher\.values",
    r"for await over merge of two \(0\.\.<N/2\)\.publisher \.values",
    r"Producer → values, producer and consumer in different tasks",
]
SUMMARY_FILTER = "(" + "|".join(SUMMARY_ROWS) + r") \| .*"
BEGIN, END = "<!-- benchmark-summary -->", "<!-- /benchmark-summary -->"


def as_json(rows, ranges, meta):
    return {**meta, "rows": [
        {"target": r[0], "workload": r[1], "contender": r[2], "elements": r[3],
         "nsPerElement": r[4], "mallocsPerElement": None if r[5] is None else r[5] / r[3],
         "peakResidentBytes": r[6],
         "nsPerElementRange": list(ranges[r[:4]]) if ranges else None} for r in rows]}


def write_results(directory, stem, markdown, rows, ranges, meta):
    os.makedirs(directory, exist_ok=True)
    base = os.path.join(directory, stem)
    with open(base + ".md", "w") as f:
        f.write(markdown + "\n")
    with open(base + ".json", "w") as f:
        json.dump(as_json(rows, ranges, meta), f, indent=2, ensure_ascii=False)
        f.write("\n")
    return base


def summary_table(rows):
    """One line per peer: the workload, both times and how many times faster Sluice is."""
    lines = ["| workload | peer | Sluice ns/element | peer ns/element | Sluice is |", "|---|---|---:|---:|---:|"]
    for target, workload in sorted({(r[0], r[1]) for r in rows}):
        group = [r for r in rows if (r[0], r[1]) == (target, workload)]
        sluice = next((r for r in group if r[2] == SLUICE), None)
        peers = sorted((r for r in group if not r[2].startswith(SLUICE)), key=lambda r: r[4] or 0)
        for peer in peers:
            if sluice is None or not sluice[4] or not peer[4]:
                continue
            ratio = peer[4] / sluice[4]
            verdict = f"{ratio:.3g}× faster" if ratio >= 1 else f"{1 / ratio:.3g}× slower"
            lines.append(f"| {workload} | {peer[2]} | {fmt(sluice[4])} | {fmt(peer[4])} | {verdict} |")
    return "\n".join(lines)


def write_summary(rows, ranges, meta):
    runs = "" if meta["runs"] == 1 else f" (each figure the median of {meta['runs']} runs)"
    caption = f"Measured {meta['machine']}, by `{meta['command']}`{runs}."
    markdown = summary_table(rows) + "\n\n" + caption
    base = write_results(SUMMARY, "summary", markdown, rows, ranges, meta)
    with open(README) as f:
        readme = f.read()
    if BEGIN not in readme or END not in readme:
        sys.exit(f"README.md has no {BEGIN} … {END} block to put the summary in ({base}.md has it)")
    head, rest = readme.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(README, "w") as f:
        f.write(f"{head}{BEGIN}\n{markdown}\n{END}{tail}")
    print(f"wrote {base}.md, {base}.json and README.md's summary", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", action="append", default=[], help="a suite: Core, Bridge, Memory")
    parser.add_argument("--filter", help="regex on benchmark names, passed to package-benchmark; "
                                         "it must match the whole name, e.g. '.*PassthroughSubject.*'")
    parser.add_argument("--ci", action="store_true", help="few iterations, small memory workloads")
    parser.add_argument("--summary", action="store_true",
                        help="run only the README's summary rows; write Benchmarks/Results/summary.* and README.md's table")
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
    if args.summary and (args.filter or args.target or args.ci):
        parser.error("--summary runs its own rows: no --filter, --target or --ci")
    filter_regex = SUMMARY_FILTER if args.summary else args.filter

    progress = Progress(seconds_per_benchmark=0.6 if args.ci else 2.6)
    meta = {"machine": machine(), "command": "python3 Benchmarks/compare.py " + " ".join(sys.argv[1:]),
            "runs": args.runs, "ci": args.ci}
    runs = []
    for k in range(args.runs):
        label = f" (run {k + 1} of {args.runs})" if args.runs > 1 else ""
        runs.append(parse(run_benchmarks(args.target, args.ci, filter_regex, progress, label)))
    progress.stopped.set()
    rows, ranges = combine(runs) if args.runs > 1 else (runs[0], None)
    runs_note = f", median of {args.runs} runs" if args.runs > 1 else ""
    heading = f"Run {meta['machine']}{' (--ci)' if args.ci else ''}{runs_note}:"
    markdown = table(rows, ranges)
    print(f"{heading}\n\n{markdown}")
    base = write_results(RESULTS, "last-run", f"{heading}\n\n{markdown}", rows, ranges, meta)
    print(f"\nwritten to {base}.md and {base}.json", file=sys.stderr)
    if args.summary:
        write_summary(rows, ranges, meta)
    if args.update_allocations:
        update_allocations(rows, runs)
    if args.check_allocations and not check_allocations(rows):
        sys.exit(1)


if __name__ == "__main__":
    main()

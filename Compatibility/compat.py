#!/usr/bin/env python3
"""OpenCombine 0.14.0's test suite run against Sluice (see README.md).

    bash Compatibility/prepare.sh                       # fetch OpenCombine, generate the sources
    python3 Compatibility/compat.py run                 # build, run every class, check the list
    python3 Compatibility/compat.py run --filter SinkTests          # one class (a regex)
    python3 Compatibility/compat.py run --filter 'SinkTests/testX$' # one test
    python3 Compatibility/compat.py run --update        # rewrite ExpectedFailures.txt from a run

`generate` (called by prepare.sh) copies OpenCombine's Tests/OpenCombineTests, swaps its
`import Combine` for Sluice's modules and applies the `exclude` lines of ExpectedFailures.txt.

`run` builds the test target once, then runs each XCTest class in a process of its own with a
timeout (a trap in one test kills its process, and with it the rest of the class). When a class
crashes or times out, the tests it did not finish are run one by one, so that the culprit is
found and the others still get a result. The results are compared with ExpectedFailures.txt:
the run fails (exit 1) when a test not listed there fails or a listed test passes. A test whose
result disagrees with the list is run once more on its own before it counts, so that a test
which depends on timing on a loaded machine does not fail the run by chance (it is reported as
flaky instead). `--update` rewrites the list from the run instead: listed tests keep their
reason, new failures get `not-yet-fixed`, tests that pass leave the list.

The list (ExpectedFailures.txt), one entry a line, columns separated by two or more spaces:
    TestClass.testMethod  reason  explanation
    exclude  path/in/OpenCombineTests.swift  reason  explanation               (a whole file)
    exclude  path/in/OpenCombineTests.swift:TestClass.testMethod  reason  explanation
    exclude  path/in/OpenCombineTests.swift:extension X: Y  reason  explanation  (a declaration
             of no test: the one that begins with that text, to its closing brace)
An excluded test is removed from the generated sources; it counts as failing with its reason.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTATIONS = os.path.join(HERE, "ExpectedFailures.txt")
GENERATED = os.path.join(HERE, "Generated", "OpenCombineTests")
REPORT_DIR = os.path.join(HERE, ".build-report")
MODULE = "OpenCombineTests"

# The reasons a test may be listed with (README.md explains each).
REASONS = {
    "opencombine-only-api": "uses API only OpenCombine has",
    "released-after-completion": "Combine keeps a finished subscriber/subscription alive; Sluice releases it",
    "toolchain-defect": "a toolchain defect (reproducer in the repository)",
    "swift6-soundness": "a deliberate Swift 6 soundness difference (Migration.md)",
    "not-yet-fixed": "a behaviour difference still to fix",
    "description": "compares description strings or mirrors (still to fix)",
}
# Reasons that are not final: while a test is listed with one of these, there is work to do.
OPEN_REASONS = ("not-yet-fixed", "description")


# MARK: - The list of expected failures


class Entry:
    """One line of ExpectedFailures.txt."""

    def __init__(self, kind, target, reason, explanation, line):
        self.kind = kind  # "test" or "exclude"
        self.target = target  # "Class.test", "path" or "path:Class.test"
        self.reason = reason
        self.explanation = explanation
        self.line = line


def read_expectations(path=EXPECTATIONS):
    """Returns (header comment lines, entries). Exits on a malformed line."""
    header, entries, problems = [], [], []
    if not os.path.exists(path):
        return header, entries
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    seen_entry = False
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            if not seen_entry:
                header.append(raw)
            continue
        seen_entry = True
        if line.startswith("exclude "):
            parts = re.split(r"\s{2,}", line[len("exclude "):].strip(), maxsplit=2)
            kind = "exclude"
        else:
            parts = re.split(r"\s{2,}", line.strip(), maxsplit=2)
            kind = "test"
        if len(parts) < 2:
            problems.append(f"{path}:{number}: expected 'name  reason  explanation': {line}")
            continue
        target, reason = parts[0], parts[1]
        explanation = parts[2] if len(parts) > 2 else ""
        if reason not in REASONS:
            problems.append(f"{path}:{number}: unknown reason '{reason}' (allowed: {', '.join(REASONS)})")
        if kind == "test" and not re.fullmatch(r"\w+\.\w+", target):
            problems.append(f"{path}:{number}: expected TestClass.testMethod, got '{target}'")
        entries.append(Entry(kind, target, reason, explanation, number))
    names = [e.target for e in entries]
    for name, count in collections.Counter(names).items():
        if count > 1:
            problems.append(f"{path}: '{name}' is listed {count} times")
    if problems:
        sys.exit("\n".join(problems))
    # Comments written after the first entry are not kept by --update; the header is.
    while header and not header[-1].strip():
        header.pop()
    return header, entries


# MARK: - generate: OpenCombine's tests, made to import Sluice


TEST_CLASS = re.compile(r"^\s*(?:(?:public|internal|private|fileprivate|final|open)\s+)*class\s+(\w+)\s*:\s*XCTestCase\b", re.M)
EXTENSION = re.compile(r"^\s*(?:(?:public|internal|private|fileprivate)\s+)?extension\s+(\w+)\b", re.M)
TEST_METHOD = re.compile(r"^\s*(?:(?:@\w+(?:\([^)]*\))?|final|public|internal|override)\s+)*func\s+(test\w*)\s*\(\s*\)", re.M)


def tests_in(text):
    """The XCTest methods a file declares, as "Class.test", by a scan of its text (good enough
    to count what an excluded file held: a test method belongs to the class or extension above it)."""
    containers = sorted(
        [(m.start(), m.group(1)) for m in TEST_CLASS.finditer(text)]
        + [(m.start(), m.group(1)) for m in EXTENSION.finditer(text)]
    )
    test_classes = {m.group(1) for m in TEST_CLASS.finditer(text)}
    found = []
    for m in TEST_METHOD.finditer(text):
        owner = None
        for start, name in containers:
            if start < m.start():
                owner = name
        if owner in test_classes:
            found.append(f"{owner}.{m.group(1)}")
    return found


def code_end(text, open_brace):
    """The index after the brace that closes the one at `open_brace`, skipping strings and comments."""
    depth, i, n = 0, open_brace, len(text)
    while i < n:
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        if text.startswith("/*", i):
            i = text.find("*/", i + 2) + 2
            continue
        if text.startswith('"""', i):
            i = text.find('"""', i + 3) + 3
            continue
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


def remove_method(text, class_name, method, note):
    """Removes `func method()` of `class_name` (with its attributes and doc comment). The lines
    it held become empty lines after one comment, so line numbers stay OpenCombine's."""
    owners = [(m.start(), m.group(1)) for m in TEST_CLASS.finditer(text)] + [
        (m.start(), m.group(1)) for m in EXTENSION.finditer(text)
    ]
    pattern = re.compile(r"^[ \t]*(?:@[\w]+(?:\([^)\n]*\))?[ \t]*\n[ \t]*)*(?:(?:final|override|public|internal)\s+)*func\s+" + re.escape(method) + r"\s*\(\s*\)", re.M)
    for m in pattern.finditer(text):
        owner = max((o for o in owners if o[0] < m.start()), default=(0, None))[1]
        if owner != class_name:
            continue
        end = code_end(text, text.index("{", m.end()))
        removed = text[m.start():end]
        indent = re.match(r"[ \t]*", removed).group(0)
        replacement = f"{indent}// {method}: removed by Compatibility/prepare.sh ({note})" + "\n" * removed.count("\n")
        return text[: m.start()] + replacement + text[end:]
    raise LookupError(f"no func {method}() in class {class_name}")


def remove_declaration(text, start, note):
    """Removes the declaration that begins with the text `start` (with its attributes) up to the
    brace that closes its body; its lines become empty lines after one comment, as above."""
    m = re.compile(r"^[ \t]*(?:@[\w]+(?:\([^)\n]*\))?[ \t]*\n[ \t]*)*" + re.escape(start), re.M).search(text)
    if not m:
        raise LookupError(f"no declaration beginning '{start}'")
    end = code_end(text, text.index("{", m.end()))
    removed = text[m.start():end]
    replacement = f"// removed by Compatibility/prepare.sh ({note}): {start}" + "\n" * removed.count("\n")
    return text[: m.start()] + replacement + text[end:]


def sluice_imports(text):
    """OpenCombine's switch for Apple's Combine, pointed at Sluice (same line, so line numbers hold)."""
    text = re.sub(r"^import Combine$", "import Sluice; import SluiceFoundation", text, flags=re.M)
    # `Combine.Published`, `Combine.ObservableObject`: the module's name in qualified references.
    return re.sub(r"(?<![\w.])Combine\.(?=[A-Z])", "Sluice.", text)


def write_if_changed(path, text):
    """Writes only a changed file, so that the build stays incremental."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return True


def generate(args):
    _, entries = read_expectations()
    source, output = os.path.abspath(args.source), os.path.abspath(args.output)
    excluded_files = {e.target: e for e in entries if e.kind == "exclude" and ":" not in e.target}
    excluded_methods = collections.defaultdict(list)
    for e in entries:
        if e.kind == "exclude" and ":" in e.target:
            path, test = e.target.split(":", 1)
            excluded_methods[path].append((test, e))
    problems, excluded_tests, written, kept = [], [], 0, set()
    for directory, _, files in os.walk(source):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            relative = os.path.relpath(os.path.join(directory, name), source)
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                text = f.read()
            if relative in excluded_files:
                e = excluded_files.pop(relative)
                excluded_tests += [(t, e) for t in tests_in(text)]
                continue
            for piece, e in excluded_methods.pop(relative, []):
                try:
                    if re.fullmatch(r"\w+\.\w+", piece):
                        class_name, method = piece.split(".", 1)
                        text = remove_method(text, class_name, method, e.reason)
                        excluded_tests.append((piece, e))
                    else:
                        text = remove_declaration(text, piece, e.reason)
                except (LookupError, ValueError) as error:
                    problems.append(f"ExpectedFailures.txt:{e.line}: {relative}: {error}")
            kept.add(relative)
            written += write_if_changed(os.path.join(output, relative), sluice_imports(text))
    for path, e in list(excluded_files.items()) + [(p, x[0][1]) for p, x in excluded_methods.items()]:
        problems.append(f"ExpectedFailures.txt:{e.line}: no file {path} in {source}")
    if problems:
        sys.exit("\n".join(problems))
    # Files OpenCombine no longer has (or that are excluded now) leave the generated folder.
    removed = 0
    for directory, _, files in os.walk(output):
        for name in files:
            relative = os.path.relpath(os.path.join(directory, name), output)
            if name.endswith(".swift") and relative not in kept:
                os.remove(os.path.join(directory, name))
                removed += 1
    # The runner counts the excluded tests from this manifest.
    manifest = "".join(f"{t}  {e.reason}  {e.explanation}\n" for t, e in sorted(excluded_tests, key=lambda x: x[0]))
    write_if_changed(os.path.join(os.path.dirname(output), "excluded-tests.txt"), manifest)
    print(f"generated {output}: {len(kept)} files ({written} rewritten, {removed} removed); "
          f"{len(excluded_tests)} tests excluded")


def copy(args):
    """Copies another project's Swift sources unchanged (combine-schedulers'), keeping the build
    incremental: only changed files are written, files gone from the source are removed."""
    source, output = os.path.abspath(args.source), os.path.abspath(args.output)
    kept, written = set(), 0
    for directory, _, files in os.walk(source):
        for name in files:
            if name.endswith(".swift"):
                relative = os.path.relpath(os.path.join(directory, name), source)
                with open(os.path.join(directory, name), encoding="utf-8") as f:
                    written += write_if_changed(os.path.join(output, relative), f.read())
                kept.add(relative)
    removed = 0
    for directory, _, files in os.walk(output):
        for name in files:
            relative = os.path.relpath(os.path.join(directory, name), output)
            if relative not in kept:
                os.remove(os.path.join(directory, name))
                removed += 1
    print(f"copied {output}: {len(kept)} files ({written} rewritten, {removed} removed)")


# MARK: - run: build once, then a process per class


TEST_LINE = re.compile(r"^Test Case '(?:-\[)?(?:\w+\.)?(\w+)[ .](\w+)\]?' (started|passed|failed)")
# Linux: "path:12: error: Class.test : message"; macOS: "path:12: error: -[Module.Class test] : message"
FAILURE_LINE = re.compile(r"^(.*?):(\d+): error: (?:-\[)?(?:\w+\.)?(\w+)[ .](\w+)\]? : (.*)$")
# What a trap prints, most telling first ("Fatal error" comes before the backtracer's summary).
CRASH_LINES = [re.compile(p) for p in (
    r"((?:Fatal error|Precondition failed|Assertion failed|Unexpectedly found nil)\b.*)",
    r"(Simultaneous accesses .*)",
    r"\*\*\* (Program crashed: .*?)(?: at 0x[0-9a-f]+)? \*\*\*",
)]


class Result:
    def __init__(self, status, messages=(), seconds=0.0):
        self.status = status  # "passed" or "failed"
        self.messages = list(messages)  # assertion messages, or the crash / timeout
        self.seconds = seconds
        self.flaky = False

    @property
    def passed(self):
        return self.status == "passed"


def swift(args, cwd=HERE, capture=False):
    return subprocess.run(["swift"] + args, cwd=cwd, check=True, text=True,
                          stdout=subprocess.PIPE if capture else None)


def test_command(binary, selector):
    """The command that runs the XCTest `selector`: "Module.Class", or tests
    "Module.Class/test" separated by commas."""
    if platform.system() == "Darwin":
        return ["xcrun", "xctest", "-XCTest", selector, binary]
    return [binary, selector]


# The process groups running now, so that an interrupted run leaves no test process behind.
ACTIVE_GROUPS = set()
ACTIVE_LOCK = threading.Lock()


def stop_active_groups(*_):
    with ACTIVE_LOCK:
        for group in list(ACTIVE_GROUPS):
            try:
                os.killpg(group, signal.SIGKILL)
            except ProcessLookupError:
                pass
    sys.exit(130)


def run_watched(command, env, timeout_for, total_timeout):
    """Runs `command` in a process group of its own (the crash tests start child processes)
    and watches its XCTest output: when a test has run longer than `timeout_for(test)` seconds
    without a verdict (or the whole process longer than `total_timeout`), the group is killed.
    Returns (output, returncode, the test that hung or None, seconds)."""
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=HERE, env=env, text=True, errors="replace",
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    with ACTIVE_LOCK:
        ACTIVE_GROUPS.add(process.pid)
    lines, current = [], [None, 0.0]  # the test running now, and since when

    def read():
        for line in process.stdout:
            lines.append(line)
            m = TEST_LINE.match(line)
            if m:
                name = f"{m.group(1)}.{m.group(2)}"
                if m.group(3) == "started":
                    current[:] = [name, time.monotonic()]
                elif current[0] == name:
                    current[:] = [None, 0.0]

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    hung = None
    while process.poll() is None:
        time.sleep(0.1)
        now = time.monotonic()
        test, since = current
        if test and now - since > timeout_for(test):
            hung = test
        elif now - started > total_timeout:
            hung = test or "(no test running)"
        if hung:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
            break
    reader.join(timeout=10)
    with ACTIVE_LOCK:
        ACTIVE_GROUPS.discard(process.pid)
    return "".join(lines), process.returncode, hung, time.monotonic() - started


def parse(output):
    """Per test "Class.test": its last reported verdict and its failure messages; and the tests
    that started, in order. A crash test's child process (Helpers/AssertCrashes.swift) writes
    into the same output: its lines come before the parent's verdict on the same test, so the
    last verdict is the parent's."""
    results, messages, started = {}, collections.defaultdict(list), []
    for line in output.splitlines():
        m = TEST_LINE.match(line)
        if m:
            name = f"{m.group(1)}.{m.group(2)}"
            if m.group(3) == "started":
                started.append(name)
            else:
                seconds = re.search(r"\(([\d.]+) seconds\)", line)
                results[name] = Result(m.group(3), messages[name], float(seconds.group(1)) if seconds else 0.0)
            continue
        m = FAILURE_LINE.match(line)
        if m:
            file = os.path.basename(m.group(1))
            messages[f"{m.group(3)}.{m.group(4)}"].append(f"{file}:{m.group(2)}: {m.group(5).strip()}")
    return results, started


def crash_message(output):
    for pattern in CRASH_LINES:
        found = pattern.findall(output)
        if found:
            return "crash: " + found[-1].strip()
    return "crash: the process ended without a verdict"


class Runner:
    """Runs tests in processes, a class (or a list of tests of one class) per process."""

    def __init__(self, binary, args, listed):
        self.binary, self.args = binary, args
        self.lock = threading.Lock()
        # A listed test known to hang gets a short timeout, so that it costs little each run.
        self.known_hangs = {t for t, e in listed.items() if e.explanation.startswith("timeout")}
        os.makedirs(os.path.join(REPORT_DIR, "logs"), exist_ok=True)

    def timeout_for(self, test):
        return self.args.known_hang_timeout if test in self.known_hangs else self.args.test_timeout

    def log(self, name, output):
        with open(os.path.join(REPORT_DIR, "logs", name + ".log"), "w", encoding="utf-8") as f:
            f.write(output)

    def run_one(self, test, backtrace=True):
        """One test in a process of its own (with the backtracer on, so that its log shows where
        a trap came from)."""
        env = dict(os.environ) if backtrace else dict(os.environ, SWIFT_BACKTRACE="enable=no")
        output, _, hung, _ = run_watched(test_command(self.binary, f"{MODULE}.{test.replace('.', '/')}"),
                                         env, self.timeout_for, self.args.class_timeout)
        self.log(test, output)
        results, _ = parse(output)
        if hung:
            return Result("failed", [f"timeout: no verdict within {self.timeout_for(test):g}s"])
        return results.get(test) or Result("failed", [crash_message(output)])

    def run_tests(self, class_name, tests, whole_class):
        """Runs `tests` of one class in one process. When the process hangs or dies, the test
        that was running is the culprit: it fails (a crash is confirmed by running it alone),
        and the tests after it run on in a new process."""
        # The backtracer takes most of a second per trap, and every crash test traps on purpose
        # in a child process: it is off here, on for a test run alone.
        env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
        results, remaining, attempt, notes = {}, list(tests), 0, []
        while remaining:
            selector = (f"{MODULE}.{class_name}" if whole_class and attempt == 0
                        else ",".join(f"{MODULE}.{t.replace('.', '/')}" for t in remaining))
            output, code, hung, _ = run_watched(test_command(self.binary, selector), env,
                                                self.timeout_for, self.args.class_timeout)
            self.log(class_name + (f".{attempt}" if attempt else ""), output)
            attempt += 1
            parsed, started = parse(output)
            results.update({t: r for t, r in parsed.items() if t in remaining})
            unfinished = [t for t in remaining if t not in results]
            if not unfinished:
                break
            culprit = hung if hung in unfinished else next((t for t in reversed(started) if t in unfinished), None)
            if culprit is None:
                # Nothing to blame (the process died between tests): the rest one by one.
                notes.append(f"ended (exit {code}) between tests: {len(unfinished)} run one by one")
                for t in unfinished:
                    results[t] = self.run_one(t)
                break
            if hung:
                results[culprit] = Result("failed", [f"timeout: no verdict within {self.timeout_for(culprit):g}s"])
                notes.append(f"{culprit.split('.')[1]} timed out")
            else:
                alone = self.run_one(culprit)
                if alone.passed:
                    alone = Result("failed", [crash_message(output) + " (in its class's process; passes alone)"])
                results[culprit] = alone
                notes.append(f"{culprit.split('.')[1]} crashed")
            remaining = [t for t in unfinished if t != culprit]
        return results, notes

    def run_class(self, class_name, tests, whole_class=True):
        started = time.monotonic()
        results, notes = self.run_tests(class_name, tests, whole_class)
        with self.lock:
            failed = sum(not r.passed for r in results.values())
            note = f" — {'; '.join(notes)}" if notes else ""
            print(f"  {class_name}: {len(tests) - failed}/{len(tests)} passed "
                  f"({time.monotonic() - started:.1f}s){note}", flush=True)
        return results

    def run_all(self, tests_by_class, whole_class=True):
        results = {}
        # The biggest classes first, so that the last ones to finish are small.
        order = sorted(tests_by_class, key=lambda c: -len(tests_by_class[c]))
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            for partial in pool.map(lambda c: self.run_class(c, tests_by_class[c], whole_class), order):
                results.update(partial)
        return results


def build(args):
    started = time.monotonic()
    if not args.skip_prepare:
        subprocess.run(["bash", os.path.join(HERE, "prepare.sh")], check=True)
    if not args.skip_build:
        swift(["build", "--build-tests"])
    bin_path = swift(["build", "--show-bin-path"], capture=True).stdout.strip()
    binary = os.path.join(bin_path, "SluiceCompatibilityPackageTests.xctest")
    if not os.path.exists(binary):
        sys.exit(f"no test binary at {binary}: build first (without --skip-build)")
    print(f"=== prepared and built in {time.monotonic() - started:.0f}s", flush=True)
    return binary


def list_tests(binary):
    """Every test of the built suite, as "Class.test"."""
    command = ["xcrun", "xctest", "-XCTest", "list", binary] if platform.system() == "Darwin" else [binary, "--list-tests"]
    output, code, _, _ = run_watched(command, dict(os.environ), lambda _: 120, 120)
    tests = []
    for line in output.splitlines():
        m = re.fullmatch(rf"\s*{MODULE}\.(\w+)[/.](\w+)\s*", line)
        if m:
            tests.append(f"{m.group(1)}.{m.group(2)}")
    if not tests:
        sys.exit(f"could not list the tests of {binary} (exit {code}):\n{output[-2000:]}")
    return tests


def read_excluded():
    path = os.path.join(os.path.dirname(GENERATED), "excluded-tests.txt")
    excluded = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                name, reason, *rest = re.split(r"\s{2,}", line.strip(), maxsplit=2)
                excluded[name] = (reason, rest[0] if rest else "")
    return excluded


def explanation_for(result):
    text = result.messages[0] if result.messages else "failed"
    # "File.swift:123: XCTAssertEqual failed: ..." reads better without the file's name.
    text = re.sub(r"^\w+\.swift:\d+: ", "", text)
    text = re.sub(r"\s+", " ", text)
    return text if len(text) <= 160 else text[:157] + "..."


DESCRIPTION_PATTERNS = re.compile(
    r"description|playgroundDescription|customMirror|Mirror|reflect|String\(describing|debugDescription",
    re.I)


def looks_like_description(test, result):
    return any(DESCRIPTION_PATTERNS.search(m) for m in result.messages) or re.search(
        r"Description|Reflection|Mirror", test.split(".")[1])


def percent(part, whole):
    return f"{100.0 * part / whole:.1f}%" if whole else "n/a"


def run(args):
    header, entries = read_expectations()
    started = time.monotonic()
    binary = build(args)
    excluded = read_excluded()
    listed = {e.target: e for e in entries if e.kind == "test"}
    tests = list_tests(binary)
    selected = [t for t in tests if re.search(args.filter, t.replace(".", "/"))] if args.filter else tests
    if not selected:
        sys.exit(f"no test matches --filter {args.filter!r}")
    tests_by_class = collections.defaultdict(list)
    for t in selected:
        tests_by_class[t.split(".")[0]].append(t)
    print(f"=== running {len(selected)} tests in {len(tests_by_class)} classes, {args.jobs} processes at a time", flush=True)
    run_started = time.monotonic()
    runner = Runner(binary, args, listed)
    signal.signal(signal.SIGTERM, stop_active_groups)
    signal.signal(signal.SIGINT, stop_active_groups)
    results = runner.run_all(tests_by_class, whole_class=True)
    run_seconds = time.monotonic() - run_started

    # A result that disagrees with the list is checked once more, on its own.
    disagreeing = [t for t in selected if results[t].passed == (t in listed)]
    again_started = time.monotonic()
    if disagreeing:
        print(f"=== {len(disagreeing)} results disagree with {os.path.basename(EXPECTATIONS)}: "
              "running them once more (in a process per class)", flush=True)
        again_by_class = collections.defaultdict(list)
        for t in disagreeing:
            again_by_class[t.split(".")[0]].append(t)
        again = runner.run_all(again_by_class, whole_class=False)
        for t, r in again.items():
            if r.passed != results[t].passed:
                # The two runs disagree: keep the list's side, and say so.
                results[t] = r if r.passed != (t in listed) else results[t]
                results[t].flaky = True
    again_seconds = time.monotonic() - again_started

    problems = []
    for name in listed:
        if name in excluded:
            problems.append(f"{name} is both excluded and listed")
        elif name not in tests and (not args.filter or re.search(args.filter, name.replace(".", "/"))):
            problems.append(f"{name} is listed but the suite has no such test")
    unexpected_failures = [t for t in selected if not results[t].passed and t not in listed and not results[t].flaky]
    unexpected_passes = [t for t in selected if results[t].passed and t in listed and not results[t].flaky]
    flaky = [t for t in selected if results[t].flaky]

    save_report(results, excluded, listed, run_seconds)
    if args.update:
        update_expectations(header, entries, results, selected, tests, args)
        header, entries = read_expectations()
        listed = {e.target: e for e in entries if e.kind == "test"}
        unexpected_failures, unexpected_passes, problems = [], [], []

    summary(selected, tests, results, listed, excluded, args)
    print(f"\nprepare and build {run_started - started:.0f}s, run {run_seconds:.0f}s"
          + (f", second run of the {len(disagreeing)} disagreeing tests {again_seconds:.0f}s" if disagreeing else "")
          + f", total {time.monotonic() - started:.0f}s")
    if flaky:
        print(f"\nflaky: {len(flaky)} tests gave different results in two runs (the list's side was kept):")
        for t in flaky:
            print(f"  {t}")
    if unexpected_failures:
        print(f"\nFAILED, not in {os.path.basename(EXPECTATIONS)} ({len(unexpected_failures)}):")
        for t in unexpected_failures:
            print(f"  {t}  {explanation_for(results[t])}")
    if unexpected_passes:
        print(f"\nPASSED, but listed in {os.path.basename(EXPECTATIONS)} as expected to fail ({len(unexpected_passes)}):")
        for t in unexpected_passes:
            print(f"  {t}  ({listed[t].reason})")
    for p in problems:
        print(f"\n{os.path.basename(EXPECTATIONS)}: {p}")
    if unexpected_failures or unexpected_passes or problems:
        print(f"\nThe results differ from {os.path.relpath(EXPECTATIONS)}. If the change is intended (a fix, or a "
              "regression you accept), update the list:\n    python3 Compatibility/compat.py run --update\n"
              "and review the diff (the logs of each class and rerun test are in Compatibility/.build-report/logs).")
        sys.exit(1)
    print("\nOK: every result is the one ExpectedFailures.txt expects.")


def save_report(results, excluded, listed, run_seconds):
    report = {
        "run_seconds": round(run_seconds, 1),
        "tests": {t: {"status": r.status, "messages": r.messages, "seconds": r.seconds, "flaky": r.flaky,
                      "listed": listed[t].reason if t in listed else None}
                  for t, r in sorted(results.items())},
        "excluded": {t: reason for t, (reason, _) in sorted(excluded.items())},
    }
    with open(os.path.join(REPORT_DIR, "results.json"), "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)


def update_expectations(header, entries, results, selected, tests, args):
    """Rewrites the list: excludes and listed reasons stay; failures new to the list get
    not-yet-fixed (or, with --guess-description, description when their messages look like it)."""
    keep = {}
    for e in entries:
        if e.kind != "test":
            continue
        in_run = e.target in results
        if not in_run and (e.target in tests or (args.filter and not re.search(args.filter, e.target.replace(".", "/")))):
            keep[e.target] = e  # not run this time: unchanged
        elif in_run and not results[e.target].passed:
            keep[e.target] = e
    added = 0
    for t in selected:
        r = results[t]
        if not r.passed and t not in keep:
            reason = "description" if args.guess_description and looks_like_description(t, r) else "not-yet-fixed"
            keep[t] = Entry("test", t, reason, explanation_for(r), 0)
            added += 1
    removed = sum(1 for e in entries if e.kind == "test" and e.target not in keep)
    lines = header + [""]
    lines += [f"exclude  {e.target}  {e.reason}  {e.explanation}".rstrip() for e in entries if e.kind == "exclude"]
    lines.append("")
    width = max((len(t) for t in keep), default=0)
    for t in sorted(keep):
        e = keep[t]
        lines.append(f"{t.ljust(width)}  {e.reason}  {e.explanation}".rstrip())
    with open(EXPECTATIONS, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"\nupdated {os.path.relpath(EXPECTATIONS)}: {added} added (not-yet-fixed unless a reason was given), "
          f"{removed} removed (they pass now), {len(keep)} listed")


def summary(selected, tests, results, listed, excluded, args):
    """Counts over the whole suite: the tests run plus the tests excluded from the build."""
    scope = "the selected tests" if args.filter else "OpenCombine 0.14.0's suite"
    ran = [results[t] for t in selected]
    passed = sum(r.passed for r in ran)
    considered_excluded = {} if args.filter else excluded
    total = len(selected) + len(considered_excluded)
    by_reason = collections.Counter()
    for t in selected:
        if not results[t].passed:
            by_reason[listed[t].reason if t in listed else "not listed"] += 1
    for t, (reason, _) in considered_excluded.items():
        by_reason[reason] += 1
    crashes = sum(1 for r in ran if not r.passed and r.messages and r.messages[0].startswith("crash:"))
    timeouts = sum(1 for r in ran if not r.passed and r.messages and r.messages[0].startswith("timeout:"))
    description = by_reason.get("description", 0)
    print(f"\n=== {scope} against Sluice: {total} tests ({len(selected)} run, {len(considered_excluded)} excluded from the build)")
    print(f"passed: {passed} ({percent(passed, total)} of all tests)")
    print(f"failed: {total - passed} (excluded ones included; {crashes} crashed, {timeouts} timed out)")
    for reason, count in sorted(by_reason.items(), key=lambda x: -x[1]):
        print(f"    {reason:<28} {count}")
    print(f"pass rate among tests not listed as `description`: {percent(passed, total - description)} "
          f"({passed} of {total - description})")


# MARK: - main


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("generate", help="generate the test sources (prepare.sh calls it)")
    g.add_argument("--source", required=True, help="OpenCombine's Tests/OpenCombineTests")
    g.add_argument("--output", default=GENERATED)
    c = commands.add_parser("copy", help="copy another project's sources unchanged (prepare.sh calls it)")
    c.add_argument("--source", required=True)
    c.add_argument("--output", required=True)
    r = commands.add_parser("run", help="build, run the suite class by class, compare with the list")
    r.add_argument("--filter", help="a regex on Class/test: run only the tests it matches (the list is checked for those)")
    r.add_argument("--update", action="store_true", help="rewrite ExpectedFailures.txt from this run")
    r.add_argument("--guess-description", action="store_true",
                   help="with --update: list new failures whose messages mention descriptions or mirrors as `description`")
    r.add_argument("--jobs", type=int, default=2, help="classes run at a time (default 2)")
    r.add_argument("--test-timeout", type=float, default=30,
                   help="seconds a test may run without a verdict before its process is killed (default 30)")
    r.add_argument("--known-hang-timeout", type=float, default=10,
                   help="the same for a test listed with an explanation beginning 'timeout' (default 10)")
    r.add_argument("--class-timeout", type=float, default=600, help="seconds for one process (default 600)")
    r.add_argument("--skip-prepare", action="store_true", help="do not run prepare.sh first")
    r.add_argument("--skip-build", action="store_true", help="use the test binary built last")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)
    elif args.command == "copy":
        copy(args)
    elif args.command == "run":
        run(args)


if __name__ == "__main__":
    main()

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


# MARK: - main


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("generate", help="generate the test sources (prepare.sh calls it)")
    g.add_argument("--source", required=True, help="OpenCombine's Tests/OpenCombineTests")
    g.add_argument("--output", default=GENERATED)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)


if __name__ == "__main__":
    main()

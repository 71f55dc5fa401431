#!/usr/bin/env bash
# Checks that every code example in the documentation is code the tests compile and run.
#
# - Every ```swift block of every DocC article (Sources/*/*.docc/*.md) is preceded by a marker
#   line `<!-- snippet: Name -->`; a block without one fails. The test file
#   Tests/<target>/Articles/<Article>Snippets.swift (<Article> is the article's file name
#   without .md; any test target) holds the same lines between `// snippet Name begin` and
#   `// snippet Name end`.
# - Every ```swift block in a `///` doc comment under Sources/ is preceded by
#   `/// <!-- snippet: Name -->` (names unique across Sources/), and one file in
#   Tests/<target>/DocExamples/ holds the same lines between the same markers. Other code blocks
#   in doc comments must name a language (```text for diagrams).
# - README.md's quick start (the block after `<!-- quick-start -->`) is the code between
#   `// quick start begin` and `// quick start end` in Tests/SluiceTests/QuickStartTests.swift.
# - README.md's benchmark summary (between the `benchmark-summary` markers) is
#   Benchmarks/Results/summary.md, which `python3 Benchmarks/compare.py --summary` writes.
#
# Lines are compared in order, ignoring indentation, blank lines and `import` lines. A test may
# check the state in the middle of a snippet with lines that begin with `#expect(`: the article
# may leave those out (and say what they check in a comment), or show them.
# Needs only python3.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - <<'PY'
import glob, os, re, sys

def normalise(lines):
    out = []
    for line in lines:
        line = line.strip()
        if line and not line.startswith("import "):
            out.append(line)
    return out

def matches(doc, test):
    """The test's lines are the article's, plus `#expect(` lines the article may leave out."""
    shown = iter(doc)
    wanted = next(shown, None)
    for line in test:
        if line == wanted:
            wanted = next(shown, None)
        elif not line.startswith("#expect("):
            return False
    return wanted is None

def code_blocks(lines):
    """Yields (index, fence, line before it or None, block lines) for each fenced block."""
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if fence.startswith("```"):
            start = i
            previous = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), None)
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            yield start, fence, previous, body
        i += 1

def swift_blocks(path):
    """Yields (line number, line before it or None, block lines) for each ```swift block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    for index, fence, previous, body in code_blocks(lines):
        if fence == "```swift":
            yield index + 1, previous, body

def marked(paths, begin, end):
    """The lines between `begin` and `end` marker lines in the first of `paths` that has them."""
    found = []
    for path in paths:
        lines = open(path, encoding="utf-8").read().split("\n")
        starts = [k for k, l in enumerate(lines) if l.strip() == begin]
        ends = [k for k, l in enumerate(lines) if l.strip() == end]
        if len(starts) > 1 or len(ends) > 1:
            return path, None, f"{path} marks it more than once"
        if starts and ends and starts[0] < ends[0]:
            found.append((path, lines[starts[0] + 1:ends[0]]))
    if len(found) > 1:
        return None, None, "more than one test file marks it: " + ", ".join(p for p, _ in found)
    if not found:
        return None, None, "no test file marks it with `" + begin + "` … `" + end + "` (looked in " + (", ".join(paths) or "no file") + ")"
    return found[0][0], found[0][1], None

def compare(label, doc, test_path, test):
    doc, test = normalise(doc), normalise(test)
    if matches(doc, test):
        return True
    print(f"{label} differs from {test_path}:")
    import difflib
    for line in difflib.unified_diff(doc, test, "documentation", test_path, lineterm="", n=1):
        print("   ", line)
    return False

failures = 0
checked = 0
marker = re.compile(r"^<!--\s*snippet:\s*([A-Za-z0-9_]+)\s*-->$")

def check(label, previous, body, tests, seen):
    """Checks one swift block against the test that holds its snippet; True if it matches."""
    match = marker.match(previous or "")
    if not match:
        print(f"{label}: a swift block without a `<!-- snippet: Name -->` line before it")
        return False
    snippet = match.group(1)
    if snippet in seen:
        print(f"{label}: snippet {snippet} is also used at {seen[snippet]}")
        return False
    seen[snippet] = label
    path, test, error = marked(tests, f"// snippet {snippet} begin", f"// snippet {snippet} end")
    if error:
        print(f"{label}: snippet {snippet}: {error}")
        return False
    return compare(f"{label}: snippet {snippet}", body, path, test)

for article in sorted(glob.glob("Sources/*/*.docc/*.md")):
    name = os.path.splitext(os.path.basename(article))[0]
    tests = sorted(glob.glob(f"Tests/*/Articles/{name}Snippets.swift"))
    seen = {}
    for line, previous, body in swift_blocks(article):
        if check(f"{article}:{line}", previous, body, tests, seen):
            checked += 1
        else:
            failures += 1

# Doc comments: every ```swift block in a `///` comment under Sources/ is preceded by
# `/// <!-- snippet: Name -->`, and one file in Tests/*/DocExamples/ holds it (names are unique
# across Sources/). Every other code block in a doc comment names its language (```text for
# the state diagrams), so that no Swift example escapes the check by leaving the tag out.
doc_tests = sorted(glob.glob("Tests/*/DocExamples/*.swift"))
doc_seen = {}
for source in sorted(glob.glob("Sources/**/*.swift", recursive=True)):
    lines = open(source, encoding="utf-8").read().split("\n")
    # The text of the doc-comment lines (after `///`), and where each one is in the file.
    doc = [(k, l.strip()[3:]) for k, l in enumerate(lines) if l.strip().startswith("///")]
    for index, fence, previous, body in code_blocks([text for _, text in doc]):
        label = f"{source}:{doc[index][0] + 1}"
        if fence == "```":
            print(f"{label}: a code block in a doc comment without a language (```swift, or ```text for a diagram)")
            failures += 1
        elif fence != "```swift":
            continue
        elif check(label, previous, body, doc_tests, doc_seen):
            checked += 1
        else:
            failures += 1

quick_start = [b for l, p, b in swift_blocks("README.md") if p == "<!-- quick-start -->"]
path, test, error = marked(["Tests/SluiceTests/QuickStartTests.swift"], "// quick start begin", "// quick start end")
if len(quick_start) != 1:
    print("README.md has no quick-start block (or more than one)")
    failures += 1
elif error:
    print(f"README.md's quick start: {error}")
    failures += 1
elif not compare("README.md's quick start", quick_start[0], path, test):
    failures += 1
else:
    checked += 1

# README.md's benchmark summary is the table of the last recorded `compare.py --summary` run.
readme = open("README.md").read()
begin, end = "<!-- benchmark-summary -->", "<!-- /benchmark-summary -->"
summary_path = "Benchmarks/Results/summary.md"
if begin not in readme or end not in readme:
    print("README.md has no benchmark-summary block")
    failures += 1
elif not os.path.exists(summary_path):
    print(f"{summary_path} is missing: run python3 Benchmarks/compare.py --summary")
    failures += 1
elif readme.split(begin, 1)[1].split(end, 1)[0].strip() != open(summary_path).read().strip():
    print(f"README.md's benchmark summary is not {summary_path}: run python3 Benchmarks/compare.py --summary")
    failures += 1
else:
    checked += 1

if failures:
    print(f"{failures} documentation example(s) are not the code the tests run")
    sys.exit(1)
print(f"every documentation example ({checked}) is the code a test compiles and runs")
PY

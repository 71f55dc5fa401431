#!/usr/bin/env bash
# Runs OpenCombine 0.14.0's test suite against Sluice and checks the results against
# ExpectedFailures.txt (README.md). Arguments go to `compat.py run`, e.g.
#     bash Compatibility/run.sh                       # what CI runs
#     bash Compatibility/run.sh --filter SinkTests    # one class
#     bash Compatibility/run.sh --update              # rewrite ExpectedFailures.txt from a run
set -euo pipefail
cd "$(dirname "$0")"
exec python3 compat.py run "$@"

#!/usr/bin/env bash
# Checks that README.md's quick start is the code that Tests/SluiceTests/QuickStartTests.swift
# compiles and runs: every line of the README block must appear, in order, between the
# test file's "quick start begin" and "quick start end" markers (indentation aside).
set -euo pipefail
cd "$(dirname "$0")/.."
readme_block=$(awk '/<!-- quick-start -->/{getline; on=1; next} on && /^```/{exit} on' README.md | sed 's/^[[:space:]]*//' | grep -v '^$' | grep -v '^import ')
test_block=$(awk '/quick start begin/{on=1; next} /quick start end/{exit} on' Tests/SluiceTests/QuickStartTests.swift | sed 's/^[[:space:]]*//' | grep -v '^$')
if [ -z "$readme_block" ]; then echo "README.md has no quick-start block"; exit 1; fi
if [ "$readme_block" != "$test_block" ]; then
    echo "README.md's quick start differs from Tests/SluiceTests/QuickStartTests.swift:"
    diff <(echo "$readme_block") <(echo "$test_block") || true
    exit 1
fi
echo "README quick start matches the compiled test"

#!/usr/bin/env bash
# Fetches OpenCombine 0.14.0 (git, from its GitHub address) into .build-opencombine/ and generates
# Generated/OpenCombineTests/ from its Tests/OpenCombineTests: the suite's `import Combine` (its
# switch for testing Apple's Combine) becomes `import Sluice; import SluiceFoundation`, and the
# `exclude` lines of ExpectedFailures.txt remove what cannot compile against Sluice.
# Idempotent: a second run fetches nothing and rewrites only files whose content changed, so the
# next build stays incremental. Neither folder is committed (OpenCombine's code never is).
set -euo pipefail
cd "$(dirname "$0")"

tag=0.14.0
url=https://github.com/OpenCombine/OpenCombine.git
checkout=.build-opencombine

# The checkout is kept when it is at the tag and untouched; anything else is fetched again.
if [ -d "$checkout/.git" ] \
    && [ "$(git -C "$checkout" rev-parse -q --verify HEAD)" = "$(git -C "$checkout" rev-parse -q --verify "refs/tags/$tag^{commit}" || true)" ] \
    && [ -z "$(git -C "$checkout" status --porcelain)" ]; then
    echo "OpenCombine $tag: already in $checkout"
else
    rm -rf "$checkout"
    echo "OpenCombine $tag: cloning $url"
    git -c advice.detachedHead=false clone --quiet --branch "$tag" "$url" "$checkout"
fi

python3 compat.py generate --source "$checkout/Tests/OpenCombineTests" --output Generated/OpenCombineTests

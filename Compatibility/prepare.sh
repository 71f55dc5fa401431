#!/usr/bin/env bash
# Fetches OpenCombine 0.14.0 and combine-schedulers 1.2.2 (git, from their GitHub addresses) into
# .build-opencombine/ and .build-combine-schedulers/, then generates:
# - Generated/OpenCombineTests/ from OpenCombine's Tests/OpenCombineTests: the suite's
#   `import Combine` (its switch for testing Apple's Combine) becomes `import Sluice; import
#   SluiceFoundation`, and the `exclude` lines of ExpectedFailures.txt remove what cannot compile
#   against Sluice;
# - Generated/CombineSchedulers/ and Generated/CombineSchedulersTests/: combine-schedulers' sources
#   and tests, unchanged (they import `OpenCombineShim`, the package's re-export of Sluice).
# Idempotent: a second run fetches nothing and rewrites only files whose content changed, so the
# next build stays incremental. Nothing here is committed (other projects' code never is).
set -euo pipefail
cd "$(dirname "$0")"

# fetch NAME TAG URL CHECKOUT: the checkout is kept when it is at the tag and untouched;
# anything else is fetched again.
fetch() {
    local name=$1 tag=$2 url=$3 checkout=$4
    if [ -d "$checkout/.git" ] \
        && [ "$(git -C "$checkout" rev-parse -q --verify HEAD)" = "$(git -C "$checkout" rev-parse -q --verify "refs/tags/$tag^{commit}" || true)" ] \
        && [ -z "$(git -C "$checkout" status --porcelain)" ]; then
        echo "$name $tag: already in $checkout"
    else
        rm -rf "$checkout"
        echo "$name $tag: cloning $url"
        git -c advice.detachedHead=false clone --quiet --branch "$tag" "$url" "$checkout"
    fi
}

fetch OpenCombine 0.14.0 https://github.com/OpenCombine/OpenCombine.git .build-opencombine
fetch combine-schedulers 1.2.2 https://github.com/pointfreeco/combine-schedulers.git .build-combine-schedulers

python3 compat.py generate --source .build-opencombine/Tests/OpenCombineTests --output Generated/OpenCombineTests
python3 compat.py copy --source .build-combine-schedulers/Sources/CombineSchedulers --output Generated/CombineSchedulers
python3 compat.py copy --source .build-combine-schedulers/Tests/CombineSchedulersTests --output Generated/CombineSchedulersTests

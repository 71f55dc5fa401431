#!/usr/bin/env bash
# Builds the DocC catalogs of Sluice, SluiceTesting, SluiceFoundation and SluiceExt with the toolchain's own docc, from the
# public symbol graphs SwiftPM extracts (no package dependency), warnings as errors: a doc
# comment or article that links a symbol that does not exist fails CI. Uses the default build
# directory, so after `swift test` it builds nothing again.
set -euo pipefail
cd "$(dirname "$0")/.."

written=$(swift package dump-symbol-graph --minimum-access-level public | sed -n 's/^Files written to //p')
if [ -z "$written" ] || [ ! -d "$written" ]; then
    echo "no symbol graphs were written"
    exit 1
fi

for module in Sluice SluiceTesting SluiceFoundation SluiceExt; do
    if [ "$module" = SluiceFoundation ] || [ "$module" = SluiceExt ]; then
        # SluiceFoundation is mostly extensions of Foundation's types, and SluiceExt of Sluice's
        # (`Publisher`, `Publishers`), which DocC documents only as extension blocks (pages
        # under the extended module); the other catalogs have none.
        written=$(swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols \
            | sed -n 's/^Files written to //p')
    fi
    # The module's own graph and its extensions of other modules' types (Module@Other).
    graphs=".build/docs/graphs-$module"
    rm -rf "$graphs"
    mkdir -p "$graphs"
    cp "$written/$module.symbols.json" "$graphs/"
    for extension in "$written/$module"@*.symbols.json; do
        if [ -e "$extension" ]; then cp "$extension" "$graphs/"; fi
    done
    docc convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.sluice.$module" \
        --output-path ".build/docs/$module.doccarchive" \
        --warnings-as-errors
    echo "docs: $module built with no warning"
done

# Every "rule N" cited in the sources (comments and trap messages) is a numbered rule of the
# catalog's contract article.
contract=Sources/Sluice/Sluice.docc/Contract.md
for rule in $(grep -rhoE "[Rr]ule [0-9]+" Sources --include=*.swift | grep -oE "[0-9]+" | sort -un); do
    if ! grep -qE "^$rule\. " "$contract"; then
        echo "the sources cite rule $rule, which $contract does not define"
        exit 1
    fi
done
echo "docs: every rule the sources cite is defined in $contract"

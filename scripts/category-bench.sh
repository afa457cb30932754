#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host microbenchmarks of mlte: callgrind instruction counts of one
# containment check of two 1024-category sets, word by word
# (CategorySet::contains, the code the submodule runs) against bit by bit
# (target: at least 50 times fewer instructions), and of one access
# decision as a hook makes it: computed (the cache-miss path), a decision
# cache hit, and the cache thrashed. Each count is of one whole function
# and all it calls (lib.sh's callgrind_count). Deterministic: the same
# binary gives the same counts.
#
# Usage: category-bench.sh OUTDIR     (writes category.md and category.csv)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=${1:?usage: category-bench.sh OUTDIR}
mkdir -p "$out"
export PATH="$HOME/.cargo/bin:$PATH"
command -v valgrind >/dev/null || die "valgrind missing (package valgrind)"
(cd "$STACKER_ROOT" && cargo build --quiet --release --bin category-bench)
bin="$STACKER_ROOT/target/release/category-bench"

# Instructions of one check (or decision) in MODE, counted in FUNCTION
# and all it calls.
per_check() {
	callgrind_per_iteration "${CATEGORY_ITERS:-20000}" "stacker::bench::$2" \
		"$bin" "$1" @N || die "callgrind gave no count for: $1"
}

words=$(per_check words category_loop)
bitwise=$(per_check bitwise category_bitwise_loop)
decision=$(per_check decision decision_loop)
cached=$(per_check cached cached_decision_loop)
thrash=$(per_check thrash cached_decision_loop)
printf 'check,instructions\nword by word,%s\nbit by bit,%s\naccess decision,%s\ncache hit,%s\ncache thrashed,%s\n' \
	"$words" "$bitwise" "$decision" "$cached" "$thrash" >"$out/category.csv"
awk -v w="$words" -v b="$bitwise" -v d="$decision" -v h="$cached" -v t="$thrash" 'BEGIN {
	ratio = b / w
	print "## MLS category check on the host (callgrind, instructions per check)"
	print ""
	print "Containment of two sets of all 1024 categories (mlte, `modules/mlte/category.rs`):"
	print ""
	print "| check | instructions |"
	print "| --- | ---: |"
	printf "| word by word (`CategorySet::contains`) | %.1f |\n", w
	printf "| bit by bit (reference) | %.1f |\n", b
	print ""
	printf "Word by word takes %.0f times fewer instructions; target at least 50: **%s**.\n", ratio, (ratio >= 50 ? "met" : "NOT met")
	print ""
	print ""
	print "An access decision as mlte'"'"'s hooks make it, in a policy of 512 types and 2,048 rules with a Bell-LaPadula constraint on two 1024-category levels (the loop included; the function and all it calls):"
	print ""
	print "| decision | instructions |"
	print "| --- | ---: |"
	printf "| computed on the contexts (`Compiled::denied`: the rule search, the constraint) | %.1f |\n", d
	printf "| decision cache hit (64 pairs, `Policy::allowed`) | %.1f |\n", h
	printf "| cache thrashed (8,192 pairs through 2,048 entries: each a miss that resolves both SIDs under the policy, computes and inserts) | %.1f |\n", t
}' | tee "$out/category.md"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host microbenchmarks of mlte: callgrind instruction counts of one
# containment check of two 1024-category sets, word by word
# (CategorySet::contains, the code the submodule runs) against bit by bit
# (target: at least 50 times fewer instructions), and of one access
# decision as a hook makes it (both labels read in place, Compiled::denied). Deterministic: the
# same binary gives the same counts.
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

# Instructions of one check (or decision) in MODE.
per_check() {
	callgrind_per_iteration "${CATEGORY_ITERS:-20000}" \
		'*category_loop* *category_bitwise_loop* *decision_loop*' \
		"$bin" "$1" @N || die "callgrind gave no count for: $1"
}

words=$(per_check words)
bitwise=$(per_check bitwise)
decision=$(per_check decision)
printf 'check,instructions\nword by word,%s\nbit by bit,%s\naccess decision,%s\n' \
	"$words" "$bitwise" "$decision" >"$out/category.csv"
awk -v w="$words" -v b="$bitwise" -v d="$decision" 'BEGIN {
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
	printf "An access decision as mlte'"'"'s hooks make it (both labels read in place, the dense matrix of 512 types, a Bell-LaPadula constraint; the loop included): %.1f instructions.\n", d
}' | tee "$out/category.md"

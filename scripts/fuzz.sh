#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The fuzz command (`make fuzz`): runs every cargo-fuzz target in fuzz/ for
# FUZZ_SECONDS (default 600) each, one at a time, starting from the
# committed corpus (fuzz/corpus/TARGET), and fails if any target crashed.
# Prints per target: runs, execs/s, coverage (edges, features), crashes.
# Then, for FUZZ_SECONDS too, the equivalence test against SELinux on
# random policies (scripts/equivalence-fuzz.sh; it builds the test kernel).
#
#   scripts/fuzz.sh [--update-corpus] [TARGET...]
#
# TARGET "equivalence" is that run; naming targets runs only those.
#
# --update-corpus merges what a run found into fuzz/corpus/TARGET,
# minimised (libFuzzer's -set_cover_merge=1 on edges), to be committed. Without it the
# committed corpus is left as it is; the run's corpus and any crashing
# inputs are kept under $STACKER_OUT/fuzz (default out/fuzz).
#
# cargo-fuzz needs nightly features: RUSTC_BOOTSTRAP=1 lets the stable
# toolchain build the targets. libFuzzer's runtime needs a C++ compiler.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export PATH="$HOME/.cargo/bin:$PATH"
export RUSTC_BOOTSTRAP=1
SECONDS_PER_TARGET=${FUZZ_SECONDS:-600}
OUT=${STACKER_OUT:-$STACKER_ROOT/out}/fuzz
FUZZ_DIR=$STACKER_ROOT/fuzz

update=0
if [ "${1:-}" = --update-corpus ]; then
	update=1
	shift
fi

command -v c++ >/dev/null || die "no C++ compiler (libFuzzer's runtime needs one: apt-get install g++)"
if ! cargo fuzz --version >/dev/null 2>&1; then
	log "installing cargo-fuzz"
	cargo install --locked cargo-fuzz
fi

cd "$FUZZ_DIR"
equivalence=1
if [ "$#" -ne 0 ]; then
	equivalence=0
	targets=()
	for t in "$@"; do
		if [ "$t" = equivalence ]; then
			equivalence=1
		else
			targets+=("$t")
		fi
	done
else
	mapfile -t targets < <(cargo fuzz list)
fi
[ "${#targets[@]}" -ne 0 ] || [ "$equivalence" = 1 ] || die "no fuzz targets in $FUZZ_DIR"

if [ "${#targets[@]}" -ne 0 ]; then
	log "building ${#targets[@]} fuzz targets"
	cargo fuzz build -O
fi

failed=()
summary=()
for t in ${targets[@]+"${targets[@]}"}; do
	corpus=$OUT/corpus/$t
	artifacts=$OUT/artifacts/$t
	flog=$OUT/$t.log
	mkdir -p "$corpus" "$artifacts" "$FUZZ_DIR/corpus/$t"
	rm -f "$artifacts"/*
	log "fuzzing $t for $SECONDS_PER_TARGET s (log: $flog)"
	rc=0
	# One job; the committed corpus is read, the run's own corpus grows.
	cargo fuzz run -O "$t" "$corpus" "$FUZZ_DIR/corpus/$t" -- \
		-max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 \
		-rss_limit_mb=2048 -timeout=10 -artifact_prefix="$artifacts/" \
		>"$flog" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$flog" | tail -n1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$flog" | tail -n1)
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$flog" | tail -n1)
	crashes=$(find "$artifacts" -type f | wc -l)
	if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
		# The fuzzer failed without leaving an input (a build or
		# setup failure): count it.
		crashes=1
	fi
	line="$t: runs ${runs:-?}, ${speed:-?} execs/s, ${cov:-cov: ?}, crashes $crashes"
	summary+=("$line")
	log "$line"
	if [ "$crashes" -ne 0 ]; then
		failed+=("$t")
		grep -E -A20 '^(==[0-9]+==|thread .* panicked)' "$flog" | head -n 40 >&2 || true
		find "$artifacts" -type f | sed 's/^/[stacker]   crashing input: /' >&2
	elif [ "$update" -eq 1 ]; then
		# Minimise: a smallest set of inputs that covers every edge
		# (hit counts aside, to keep the committed corpus small),
		# committed corpus first.
		merged=$OUT/merged/$t
		rm -rf "$merged"
		mkdir -p "$merged"
		cargo fuzz run -O "$t" "$merged" "$FUZZ_DIR/corpus/$t" "$corpus" -- \
			-set_cover_merge=1 -use_counters=0 >"$OUT/$t.merge.log" 2>&1 ||
			die "merging the corpus of $t failed (see $OUT/$t.merge.log)"
		rm -rf "${FUZZ_DIR:?}/corpus/$t"
		mv "$merged" "$FUZZ_DIR/corpus/$t"
		log "$t: corpus $(find "$FUZZ_DIR/corpus/$t" -type f | wc -l) inputs"
	fi
done

if [ "$equivalence" = 1 ]; then
	rc=0
	EQUIVALENCE_SECONDS=$SECONDS_PER_TARGET "$STACKER_ROOT/scripts/equivalence-fuzz.sh" || rc=$?
	summary+=("equivalence: see above, $([ "$rc" -eq 0 ] && echo "no difference" || echo FAILED)")
	[ "$rc" -eq 0 ] || failed+=(equivalence)
fi

echo "fuzz summary ($SECONDS_PER_TARGET s per target):"
printf '  %s\n' ${summary[@]+"${summary[@]}"}
if [ "${#failed[@]}" -ne 0 ]; then
	die "fuzz targets failed: ${failed[*]} (inputs under $OUT/artifacts, $OUT/equivalence)"
fi
log "fuzz: ${#targets[@]} targets, no crashes"

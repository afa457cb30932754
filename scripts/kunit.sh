#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stacker's KUnit suites through the kernel's own runner (`make kunit`):
#
#   tools/testing/kunit/kunit.py run --kunitconfig security/stacker --arch x86_64 ...
#
# in the kernel tree ($KSRC or the cached one), patched and with
# security/stacker installed as build-kernel.sh does it, under the same
# build lock. The kernel is built from the repository's .kunitconfig into
# the cache (BUILD/kunit-VERSION-KEY, keyed like build-kernel.sh's builds)
# and booted under QEMU TCG. kunit.py's output goes to $STACKER_OUT/kunit.log
# (default out/).
#
# Fails unless every suite in KUNIT_SUITES (lib.sh) ran and each of its
# tests passed: kunit.py itself exits 0 when tests are skipped, and a
# suite that is not built in is simply absent from its report.
#
# scripts/kunit.sh --check LOG checks a saved kunit.py output instead (lint.sh
# checks the checker so, on the reports in tests/kunit/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=${STACKER_OUT:-$STACKER_ROOT/out}

# suite_results LOG: one line per suite in kunit.py's report,
# "SUITE STATUS PASSED SKIPPED FAILED", where STATUS is the suite's
# (PASSED, FAILED, SKIPPED, CRASHED, NO_TESTS) and the counts are of its
# tests. The report shows a suite as
#
#   ============ SUITE (N subtests) ============
#   [PASSED] test_a
#   [SKIPPED] test_b (reason)
#   ========== [PASSED] SUITE ==========
#
# (lines prefixed with a [HH:MM:SS] time stamp), or as "[NO TESTS RUN]
# SUITE" when it has no test.
suite_results() {
	sed -E 's/\x1b\[[0-9;]*m//g; s/^\[[0-9:]+\] //' "$1" | awk '
		function result(s) { return s == "NO TESTS RUN" ? "NO_TESTS" : s }
		/^=+ [^ []+ \([0-9]+ subtests?\) =+$/ {
			suite = $2; seen[suite] = 1; n[suite] = 0
			pass[suite] = skip[suite] = fail[suite] = 0
			next
		}
		/^=+ \[[A-Z ]+\] [^ ]+ =+$/ {
			match($0, /\[[A-Z ]+\]/)
			status[suite] = result(substr($0, RSTART + 1, RLENGTH - 2))
			suite = ""
			next
		}
		/^\[(PASSED|SKIPPED|FAILED|CRASHED|NO TESTS RUN)\] / {
			match($0, /\[[A-Z ]+\]/)
			s = result(substr($0, RSTART + 1, RLENGTH - 2))
			if (suite == "") {
				# A suite with no test (or no plan) is a leaf.
				name = substr($0, RLENGTH + 2); sub(/ .*/, "", name)
				seen[name] = 1; status[name] = s
				pass[name] = skip[name] = fail[name] = 0
				next
			}
			if (s == "PASSED") pass[suite]++
			else if (s == "SKIPPED") skip[suite]++
			else fail[suite]++
		}
		END {
			for (s in seen)
				printf "%s %s %d %d %d\n", s, (s in status) ? status[s] : "CRASHED", pass[s], skip[s], fail[s]
		}'
}

# check_results LOG: prints each of stacker's suites with its counts and
# fails unless all of them passed with no test skipped or failed.
check_results() {
	local log=$1 results suite line status p s f bad=() total=0
	grep -q 'Testing complete\.' "$log" || bad+=("kunit.py printed no test summary")
	results=$(suite_results "$log")
	for suite in "${KUNIT_SUITES[@]}"; do
		line=$(awk -v s="$suite" '$1 == s' <<<"$results")
		if [ -z "$line" ]; then
			echo "kunit: $suite: did not run"
			bad+=("$suite did not run")
			continue
		fi
		read -r _ status p s f <<<"$line"
		echo "kunit: $suite: $status, $p passed, $f failed, $s skipped"
		total=$((total + p))
		if [ "$status" != PASSED ] || [ "$s" -ne 0 ] || [ "$f" -ne 0 ] || [ "$p" -eq 0 ]; then
			bad+=("$suite $status ($p passed, $f failed, $s skipped)")
		fi
	done
	if [ "${#bad[@]}" -ne 0 ]; then
		# kunit.py prints the log of each failed test above its result.
		grep -E '\[(FAILED|CRASHED|SKIPPED|NO TESTS RUN)\]|(ASSERTION|EXPECTATION) FAILED|\] Expected ' "$log" >&2 || true
		log "KUnit FAILED: ${bad[*]} (kunit.py output: $log)"
		return 1
	fi
	log "KUnit: ${#KUNIT_SUITES[@]} suites, $total tests, all passed"
}

run_kunit() {
	local build rc=0 var make_options=()
	apply_patches
	install_tree
	build="$STACKER_CACHE/build/kunit-$(kernel_version)-$(build_key "$STACKER_ROOT/.kunitconfig")"
	mkdir -p "$build" "$OUT"
	touch "$build"
	prune_builds kunit 2
	for var in "${KERNEL_TOOLCHAIN[@]}"; do
		make_options+=(--make_options "$var")
	done
	log "kunit.py: building in $build and booting under QEMU TCG (-j$KERNEL_JOBS)"
	# -accel tcg: /dev/kvm opens here, but KVM guests hang (see
	# linux/patches/0007, which makes kunit.py honour this).
	python3 -B "$KSRC/tools/testing/kunit/kunit.py" run \
		--kunitconfig security/stacker --arch x86_64 --qemu_args='-accel tcg' \
		--build_dir "$build" --jobs "$KERNEL_JOBS" "${make_options[@]}" \
		>"$OUT/kunit.log" 2>&1 || rc=$?
	# The report, from the boot on; the configuration's and build's output
	# only when no kernel was booted.
	if ! grep -q 'Starting KUnit Kernel' "$OUT/kunit.log"; then
		tail -n 80 "$OUT/kunit.log"
		die "kunit.py could not configure or build the kernel (exit $rc; output: $OUT/kunit.log)"
	fi
	sed -n '/Starting KUnit Kernel/,$p' "$OUT/kunit.log"
	check_results "$OUT/kunit.log" || return 1
	[ "$rc" -eq 0 ] || die "kunit.py exited with status $rc (output: $OUT/kunit.log)"
}

if [ "${1:-}" = --check ]; then
	[ -f "${2:-}" ] || die "usage: $0 [--check KUNIT_PY_OUTPUT]"
	check_results "$2"
	exit
fi
[ "$#" -eq 0 ] || die "usage: $0 [--check KUNIT_PY_OUTPUT]"
kernel_tree
lock_builds
run_kunit

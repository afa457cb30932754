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
# suite that is not built in is simply absent from its report. The
# results are read from kunit.py's JSON report ($STACKER_OUT/kunit.json)
# by scripts/kunit-check.py, not from its text.
#
# scripts/kunit.sh --check REPORT checks a saved JSON report instead
# (lint.sh runs the checker's unit tests, tests/kunit/test_kunit_check.py,
# on the real report in tests/kunit/report.json).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=${STACKER_OUT:-$STACKER_ROOT/out}

# check_results REPORT: kunit.py's JSON report (--json=FILE) read by
# scripts/kunit-check.py: each of stacker's suites with its counts; fails
# unless all of them ran and passed with no test skipped or failed.
check_results() {
	python3 -B "$STACKER_ROOT/scripts/kunit-check.py" "$1" "${KUNIT_SUITES[@]}"
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
	# No report from an earlier run may stand in for this one's.
	rm -f "$OUT/kunit.json"
	# -accel tcg: /dev/kvm opens here, but KVM guests hang (see
	# linux/patches/0007, which makes kunit.py honour this).
	python3 -B "$KSRC/tools/testing/kunit/kunit.py" run \
		--kunitconfig security/stacker --arch x86_64 --qemu_args='-accel tcg' \
		--build_dir "$build" --jobs "$KERNEL_JOBS" "${make_options[@]}" \
		--json="$OUT/kunit.json" >"$OUT/kunit.log" 2>&1 || rc=$?
	# The report, from the boot on; the configuration's and build's output
	# only when no kernel was booted.
	if ! grep -q 'Starting KUnit Kernel' "$OUT/kunit.log"; then
		tail -n 80 "$OUT/kunit.log"
		die "kunit.py could not configure or build the kernel (exit $rc; output: $OUT/kunit.log)"
	fi
	sed -n '/Starting KUnit Kernel/,$p' "$OUT/kunit.log" | sed '/^{$/,/^}$/d'
	if ! check_results "$OUT/kunit.json"; then
		# kunit.py prints the log of each failed test above its result.
		grep -E '\[(FAILED|CRASHED|SKIPPED|NO TESTS RUN)\]|(ASSERTION|EXPECTATION) FAILED|\] Expected ' \
			"$OUT/kunit.log" >&2 || true
		log "KUnit FAILED (kunit.py output: $OUT/kunit.log, report: $OUT/kunit.json)"
		return 1
	fi
	[ "$rc" -eq 0 ] || die "kunit.py exited with status $rc (output: $OUT/kunit.log)"
}

if [ "${1:-}" = --check ]; then
	[ -f "${2:-}" ] || die "usage: $0 [--check KUNIT_JSON_REPORT]"
	check_results "$2"
	exit
fi
[ "$#" -eq 0 ] || die "usage: $0 [--check KUNIT_JSON_REPORT]"
kernel_tree
lock_builds
run_kunit

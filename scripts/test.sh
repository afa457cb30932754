#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The test command (`make test`): setup, lint, host tests, KUnit (kunit.py),
# kernel build, boot tests.
#
# With STACKER_TEST_DEBUG=1 (`make test-debug`) it builds the debug kernel
# instead (linux/debug.config on top of the test kernel, built by clang:
# KASAN, UBSAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, DEBUG_LIST,
# SLUB_DEBUG, kmemleak, fault injection), runs every boot on it with
# kmemleak_check last in each, and skips the host tests and benchmarks. Any
# kernel report fails the boot (boottest.py's KERNEL_ERROR patterns).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEBUG=${STACKER_TEST_DEBUG:-0}
OUT=${STACKER_OUT:-$STACKER_ROOT/out}
[ "$DEBUG" = 1 ] && OUT=$OUT/debug
mkdir -p "$OUT"
export PATH="$HOME/.cargo/bin:$PATH"
total_start=$(date +%s)

host_tests() {
	# Includes stacker/tests/fuzz_corpus.rs: the committed fuzz corpus
	# (fuzz/corpus) replayed through the fuzz entry points, no fuzzer.
	(cd "$STACKER_ROOT" && cargo test --workspace --all-targets)
	# The rules the type system enforces, each shown broken: a case that
	# builds when it must not fails (tests/compile_fail/run.py).
	python3 "$STACKER_ROOT/tests/compile_fail/run.py"
	# The policy tool on the example policy, and on a bad one, which it
	# must refuse with the line and column.
	(cd "$STACKER_ROOT" && cargo run --quiet --bin mlte-policy -- check modules/mlte/example.policy)
	local err
	if err=$(cd "$STACKER_ROOT" && printf 'type a;\nallow a b : file read;\n' >"$OUT/bad.policy" &&
		cargo run --quiet --bin mlte-policy -- check "$OUT/bad.policy" 2>&1); then
		die "mlte-policy accepted a policy with an unknown type"
	fi
	case $err in
	*"bad.policy:2:9: unknown type or attribute 'b'"*) log "mlte-policy refused the bad policy: $err" ;;
	*) die "mlte-policy gave an unexpected error: $err" ;;
	esac
	# A policy in SELinux's form: checkpolicy and mlte-policy both
	# compile it (policy_text.rs's tests check what it means to mlte).
	checkpolicy -M -c 33 -o "$OUT/selinux-form.33" "$STACKER_ROOT/tests/mlte/selinux-form.conf" >/dev/null \
		|| die "checkpolicy refused tests/mlte/selinux-form.conf"
	(cd "$STACKER_ROOT" && cargo run --quiet --bin mlte-policy -- check tests/mlte/selinux-form.conf) \
		|| die "mlte-policy refused tests/mlte/selinux-form.conf"
}

# The test kernel: the users' kernel plus debug checks and test hooks.
TEST_FRAGMENTS="$STACKER_ROOT/linux/stacker.config $STACKER_ROOT/linux/test.config"
[ "$DEBUG" = 1 ] && TEST_FRAGMENTS+=" $STACKER_ROOT/linux/debug.config"

build_kernel() {
	local build
	FRAGMENTS=$TEST_FRAGMENTS "$STACKER_ROOT/scripts/build-kernel.sh" >"$OUT/bzImage.path"
	# bzImage.path is BUILD/images/bzImage-HASH.
	build=$(dirname "$(dirname "$(cat "$OUT/bzImage.path")")")
	python3 -B "$STACKER_ROOT/scripts/check-hook-paths.py" "$build"
	# The debug kernel: KASAN must reach stacker's Rust and C.
	if [ "$DEBUG" = 1 ]; then
		"$STACKER_ROOT/scripts/check-kasan.sh" "$build"
	fi
}

# The initramfs, and the integrity fixtures it carries the keys of
# ($OUT/integrity, made once and kept while their inputs are unchanged).
build_initramfs() {
	"$STACKER_ROOT/scripts/mkinitramfs.sh" "$OUT" >/dev/null
}

# The boots: tests/qemu/boots.py, which holds them as data (boots.py
# --list shows them; STACKER_BOOTS="a b" runs only those, as its --only).
boot_tests() {
	local only=() name kunit=() suite
	for name in ${STACKER_BOOTS:-}; do
		only+=(--only "$name")
	done
	for suite in "${KUNIT_SUITES[@]}"; do
		kunit+=(--kunit "$suite")
	done
	[ "$DEBUG" = 1 ] && only+=(--debug)
	python3 -B "$STACKER_ROOT/tests/qemu/boots.py" \
		--kernel "$(cat "$OUT/bzImage.path")" --initrd "$OUT/initramfs.cpio.gz" \
		--out "$OUT" --timeout "${BOOT_TIMEOUT:-300}" "${kunit[@]}" "${only[@]}"
}

stage setup "$STACKER_ROOT/scripts/setup.sh"
if [ "$DEBUG" = 1 ]; then
	BOOT_TIMEOUT=${BOOT_TIMEOUT:-900}
	stage kernel-build build_kernel
	stage initramfs build_initramfs
	stage boot-tests boot_tests
	log "debug kernel: all boots passed with no kernel report in $(($(date +%s) - total_start)) s"
	exit 0
fi
stage lint "$STACKER_ROOT/scripts/lint.sh"
stage host-tests host_tests
# The KUnit suites under the kernel's own runner (kunit.py, a kernel of
# its own from .kunitconfig); the boot tests below run them again in every
# boot of the test kernel.
stage kunit "$STACKER_ROOT/scripts/kunit.sh"
stage kernel-build build_kernel
stage initramfs build_initramfs
stage boot-tests boot_tests
# One short run of every benchmark workload, so that the suite cannot rot.
stage bench-quick "$STACKER_ROOT/scripts/bench.sh" --quick
log "all tests passed in $(($(date +%s) - total_start)) s"

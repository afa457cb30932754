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
	*"bad.policy:2:9: unknown type 'b'"*) log "mlte-policy refused the bad policy: $err" ;;
	*) die "mlte-policy gave an unexpected error: $err" ;;
	esac
}

# The test kernel: the users' kernel plus debug checks and test hooks.
TEST_FRAGMENTS="$STACKER_ROOT/linux/stacker.config $STACKER_ROOT/linux/test.config"
[ "$DEBUG" = 1 ] && TEST_FRAGMENTS+=" $STACKER_ROOT/linux/debug.config"

build_kernel() {
	local build
	FRAGMENTS=$TEST_FRAGMENTS "$STACKER_ROOT/scripts/build-kernel.sh" >"$OUT/bzImage.path"
	# bzImage.path is BUILD/images/bzImage-HASH.
	build=$(dirname "$(dirname "$(cat "$OUT/bzImage.path")")")
	"$STACKER_ROOT/scripts/check-hook-paths.sh" "$build"
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

# One boot per line: a name, the kernel command line, the guest programs
# and, optionally, more boottest.py arguments, as shell words (quote a
# regex that holds spaces: --allow-kernel-message 'A .* B'). The last field
# may itself contain "|". KUnit suites run in every boot, the init-failure
# boots included: stacker's suites must still report there.
INIT_FAILURE_ARGS="--allow-kernel-message 'WARNING: .*security/lsm_init\.c'"
INIT_FAILURE_ARGS+=" --expect-kernel-message 'stacker failed to initialize'"
# One submodule of the chain fails: it is left out, stacker starts.
MODULE_FAILURE_ARGS="--expect-kernel-message 'left out of the chain, which runs without it'"
DIRECT_FAILURE_ARGS="--allow-kernel-message 'WARNING: .*security/lsm_init\.c'"
DIRECT_FAILURE_ARGS+=" --expect-kernel-message 'capstack failed to initialize'"
# The integrity boots: the fixture image that build_initramfs made (with the
# keys it put in the initramfs), as the guest's /dev/vda.
INTEGRITY_ARGS="--disk '$OUT/integrity/integrity.img'"
# The kernel's LSM selftests (tools/testing/selftests/lsm, patched by
# linux/patches/0006, "selftests/lsm: know stacker's LSM ids ..."): in the
# boots with a different LSM list, and with a submodule that answers
# lsm_get_self_attr(2), after the program that gives it something to
# answer (mlte_test loads mlte's policy).
LSM_SELFTESTS="lsm_get_self_attr_test lsm_set_self_attr_test lsm_list_modules_test"
# The coexistence boots (tests/guest/coexist_test.c): SELinux (its policy
# loaded, enforcing) and AppArmor (a profile loaded, enforcing) before and
# after stacker, each one denying and each one's attributes reachable.
# The fault-injection boot (tests/guest/fault_injection_test.c): the three
# real submodules and denyname stacked, with the integrity fixtures, each
# operation run with its 1st, 2nd, ... allocation failed (fail-nth) until
# one needs no more. It prints, per operation and in total, how many
# allocations it failed (the tests of a submodule not in the chain skip).
BOOTS=(
	"default||denyname_test chain_test securityfs_test $LSM_SELFTESTS"
	"two|stacker.chain=xattrlock,xattrlock_b|stack_test chain_test"
	"two-reversed|stacker.chain=xattrlock_b,xattrlock|stack_test chain_test"
	"three|stacker.chain=xattrlock,xattrlock_b,xattrlock_c|stack_test chain_test"
	"three-reversed|stacker.chain=xattrlock_c,xattrlock_b,xattrlock|stack_test chain_test"
	"default-loop|stacker.dispatch=loop|denyname_test chain_test"
	"default-by-name|stacker.chain=denyname,capstack|denyname_test chain_test"
	"single-loop|stacker.chain=xattrlock stacker.dispatch=loop|stack_test chain_test"
	"single|stacker.chain=xattrlock|stack_test chain_test"
	"empty|stacker.chain=|chain_test $LSM_SELFTESTS"
	"probe|stacker.chain=probe|probe_test chain_test $LSM_SELFTESTS"
	"probe-stacked|stacker.chain=probe_b,probe,probe_c|probe_test chain_test $LSM_SELFTESTS"
	"probe-own-lsm|lsm=probe,probe_b,probe_c|probe_test $LSM_SELFTESTS"
	"probe-with-own-lsm|lsm=stacker,probe_b stacker.chain=probe|probe_test chain_test $LSM_SELFTESTS"
	"repeated-names|stacker.chain=xattrlock_b,xattrlock_b,xattrlock|stack_test chain_test"
	"unknown-name|stacker.chain=xattrlock,capstak|denyname_test chain_test"
	"mlte|stacker.chain=mlte|mlte_test chain_test $LSM_SELFTESTS|$INTEGRITY_ARGS"
	"mlte-capstack|stacker.chain=mlte,capstack|mlte_test chain_test"
	"capstack-mlte|stacker.chain=capstack,mlte stacker.dispatch=loop|mlte_test chain_test $LSM_SELFTESTS"
	"integrity|stacker.chain=integrity|integrity_test chain_test|$INTEGRITY_ARGS --smp 2"
	"integrity-mlte-capstack|stacker.chain=integrity,mlte,capstack|integrity_test mlte_test capstack_test chain_test $LSM_SELFTESTS|$INTEGRITY_ARGS"
	"capstack|stacker.chain=capstack|capstack_test chain_test securityfs_test"
	"capstack-stacked|stacker.chain=xattrlock,capstack|capstack_test chain_test securityfs_test"
	"capstack-own-lsm|lsm=capstack|capstack_test securityfs_test $LSM_SELFTESTS"
	"init-failure-core|stacker.chain=capstack stacker.fail_init=core|init_failure_test|$INIT_FAILURE_ARGS"
	"init-failure-module|stacker.chain=denyname,capstack stacker.fail_init=capstack|init_failure_test|$MODULE_FAILURE_ARGS"
	"init-failure-panic|stacker.chain=denyname,capstack stacker.fail_init=capstack stacker.on_failure=panic||--expect-panic 'stacker: did not start as configured'"
	"own-lsm-conflict|lsm=capstack,stacker stacker.chain=denyname,capstack|init_failure_test|$MODULE_FAILURE_ARGS"
	"own-lsm-conflict-stacker-first|lsm=stacker,capstack stacker.chain=denyname,capstack|init_failure_test|$DIRECT_FAILURE_ARGS"
	"init-failure-own-lsm|lsm=capstack stacker.fail_init=capstack|init_failure_test|$DIRECT_FAILURE_ARGS"
	"selinux-stacker|lsm=selinux,stacker stacker.chain=denyname,mlte|coexist_test $LSM_SELFTESTS"
	"stacker-selinux|lsm=stacker,selinux stacker.chain=denyname,mlte|coexist_test $LSM_SELFTESTS"
	"apparmor-stacker|lsm=apparmor,stacker stacker.chain=mlte,denyname,probe|coexist_test $LSM_SELFTESTS"
	"stacker-apparmor|lsm=stacker,apparmor stacker.chain=mlte,denyname,probe|coexist_test $LSM_SELFTESTS"
	"smp-stress|stacker.chain=integrity,mlte,capstack,denyname|smp_stress|--smp 4 --timeout \$long_timeout"
	"fault-injection|stacker.chain=integrity,mlte,capstack,denyname|fault_injection_test|$INTEGRITY_ARGS"
)

# boot_summary FILE: prints "P F S" from the last "N passed, N failed,
# N skipped" line of a boottest.py output; returns 1 when there is none.
boot_summary() {
	local line p f s _
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$1" | tail -n1) || true
	[ -n "$line" ] || return 1
	read -r p _ f _ s _ <<<"$line"
	echo "$p $f $s"
}

# The debug kernel's guest CPU has no LA57 (5-level paging). With it
# (QEMU's -cpu max), identify_cpu() zeroes boot_cpu_data's feature bits,
# LA57's among them, for a moment while interrupts are already on
# (init/main.c enables them before arch_cpu_finalize_init()), and until the
# alternatives are patched pgtable_l5_enabled() reads those bits. An
# interrupt in that window made KASAN's addr_has_metadata() take the
# 4-level bounds, and it reported an irq_desc lock in the 5-level direct map
# as "BUG: KASAN: wild-memory-access in do_raw_spin_lock" under
# identify_cpu (2 boots of 28 in one run): a race in the kernel's boot, not
# stacker's. Without LA57 the bit never changes.
DEBUG_CPU=max,la57=off

# run_boot NAME APPEND ARGS...: one boot of the test kernel, its results in
# $OUT/boot-NAME.result.
run_boot() {
	local name=$1 append=$2 suite kunit=()
	shift 2
	for suite in "${KUNIT_SUITES[@]}"; do
		kunit+=(--kunit "$suite")
	done
	python3 -B "$STACKER_ROOT/tests/qemu/boottest.py" \
		--kernel "$(cat "$OUT/bzImage.path")" --initrd "$OUT/initramfs.cpio.gz" \
		--log "$OUT/boot-$name.log" --timeout "${BOOT_TIMEOUT:-300}" \
		--append "$append" "${kunit[@]}" "$@" \
		>"$OUT/boot-$name.result"
}

boot_tests() {
	local entry name append progs extra args p failed=() retried=() passed=0 fails=0 skips=0
	local out summary bp bf bs rc
	# The storm's boot needs 600 s, or the run's own timeout if longer
	# (make test-debug's 900 s): BOOTS names it as $long_timeout, which
	# the eval of its extra arguments expands.
	# shellcheck disable=SC2034
	local long_timeout=$((${BOOT_TIMEOUT:-300} > 600 ? ${BOOT_TIMEOUT:-300} : 600))
	for entry in "${BOOTS[@]}"; do
		IFS='|' read -r name append progs extra <<<"$entry"
		args=()
		for p in $progs; do
			args+=(--program "$p")
		done
		[ "$DEBUG" = 1 ] && args+=(--program kmemleak_check --cpu "$DEBUG_CPU")
		# The extra arguments are shell words from the BOOTS table above.
		eval "args+=($extra)"
		log "boot '$name': ${append:-(no stacker parameters)}${extra:+ [$extra]}"
		out="$OUT/boot-$name.result"
		rc=0
		run_boot "$name" "$append" "${args[@]}" || rc=$?
		# A boot whose kernel hung before it ran /init (no guest output
		# at all) is run once more: QEMU's multi-threaded TCG has been
		# seen to hang the 4-vCPU boot in early ACPI and RCU setup, 2 in
		# about 15 boots, before any test ran. The retry is logged and
		# listed; a second hang fails the boot.
		if [ "$rc" -ne 0 ] && grep -q '^FAIL: qemu:timeout' "$out" &&
			! grep -q 'Run /init as init process' "$OUT/boot-$name.log"; then
			mv "$OUT/boot-$name.log" "$OUT/boot-$name-hung.log"
			log "boot '$name': the kernel hung before userspace (log: $OUT/boot-$name-hung.log); running it once more"
			retried+=("$name")
			rc=0
			run_boot "$name" "$append" "${args[@]}" || rc=$?
		fi
		grep -v '^PASS' "$out" || true
		if summary=$(boot_summary "$out"); then
			read -r bp bf bs <<<"$summary"
		else
			# No summary: boottest.py itself broke. A failure of this
			# boot, not the end of the run.
			log "boot '$name': no summary line in $out; counted as a failure"
			bp=0 bf=0 bs=0
			[ "$rc" -ne 0 ] || rc=1
		fi
		if [ "$rc" -ne 0 ]; then
			failed+=("$name")
			# A failed boot counts at least one failure (nothing
			# passed, or no summary).
			[ "$bf" -gt 0 ] || bf=1
		fi
		passed=$((passed + bp))
		fails=$((fails + bf))
		skips=$((skips + bs))
	done
	echo "boot: $passed passed, $fails failed, $skips skipped"
	if [ "${#retried[@]}" -ne 0 ]; then
		log "boots retried after a hang before userspace: ${retried[*]}"
	fi
	if [ "${#failed[@]}" -ne 0 ]; then
		log "boot tests FAILED: ${failed[*]}"
		return 1
	fi
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

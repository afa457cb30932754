#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The test command (`make test`): setup, host tests, kernel build, boot tests.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=${STACKER_OUT:-$STACKER_ROOT/out}
mkdir -p "$OUT"
export PATH="$HOME/.cargo/bin:$PATH"
total_start=$(date +%s)

host_tests() {
	(cd "$STACKER_ROOT" && cargo test --workspace --all-targets)
}

build_kernel() {
	"$STACKER_ROOT/scripts/build-kernel.sh" >"$OUT/bzImage.path"
	# bzImage.path is BUILD/arch/x86/boot/bzImage.
	"$STACKER_ROOT/scripts/check-hook-paths.sh" "$(dirname "$(dirname "$(dirname "$(dirname "$(cat "$OUT/bzImage.path")")")")")"
}

build_initramfs() {
	"$STACKER_ROOT/scripts/mkinitramfs.sh" "$OUT" >/dev/null
}

# One boot per line: a name, the kernel command line, the guest programs.
# KUnit suites run in every boot.
BOOTS=(
	"default||denyname_test chain_test"
	"two|stacker.chain=xattrlock,xattrlock_b|stack_test chain_test"
	"two-reversed|stacker.chain=xattrlock_b,xattrlock|stack_test chain_test"
	"three|stacker.chain=xattrlock,xattrlock_b,xattrlock_c|stack_test chain_test"
	"three-reversed|stacker.chain=xattrlock_c,xattrlock_b,xattrlock|stack_test chain_test"
	"single-no-fastpath|stacker.chain=xattrlock stacker.fastpath=0|stack_test chain_test"
	"single-fastpath|stacker.chain=xattrlock|stack_test chain_test"
	"empty|stacker.chain=|chain_test"
	"bad-names|stacker.chain=bogus,xattrlock_b,xattrlock_b|stack_test chain_test"
	"capstack|stacker.chain=capstack|capstack_test chain_test"
	"capstack-stacked|stacker.chain=xattrlock,capstack|capstack_test chain_test"
	"capstack-direct|lsm=capstack|capstack_test"
)

boot_tests() {
	local entry name append progs args p failed=() passed=0 fails=0 summary
	local out
	for entry in "${BOOTS[@]}"; do
		IFS='|' read -r name append progs <<<"$entry"
		args=()
		for p in $progs; do
			args+=(--program "$p")
		done
		log "boot '$name': ${append:-(no stacker parameters)}"
		out="$OUT/boot-$name.result"
		python3 "$STACKER_ROOT/tests/qemu/boottest.py" \
			--kernel "$(cat "$OUT/bzImage.path")" --initrd "$OUT/initramfs.cpio.gz" \
			--log "$OUT/boot-$name.log" --timeout "${BOOT_TIMEOUT:-300}" \
			--append "$append" --kunit stacker --kunit stacker_denyname "${args[@]}" \
			>"$out" || failed+=("$name")
		grep -v '^PASS' "$out" || true
		summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n1)
		passed=$((passed + ${summary%% passed*}))
		summary=${summary#* passed, }
		fails=$((fails + ${summary%% failed*}))
	done
	echo "boot: $passed passed, $fails failed"
	if [ "${#failed[@]}" -ne 0 ]; then
		log "boot tests FAILED: ${failed[*]}"
		return 1
	fi
}

stage setup "$STACKER_ROOT/scripts/setup.sh"
stage lint "$STACKER_ROOT/scripts/lint.sh"
stage host-tests host_tests
stage kernel-build build_kernel
stage initramfs build_initramfs
stage boot-tests boot_tests
# One short run of every benchmark workload, so that the suite cannot rot.
stage bench-quick "$STACKER_ROOT/scripts/bench.sh" --quick
log "all tests passed in $(($(date +%s) - total_start)) s"

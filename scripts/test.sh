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
}

build_initramfs() {
	"$STACKER_ROOT/scripts/mkinitramfs.sh" "$OUT" >/dev/null
}

boot_tests() {
	local programs=() src
	for src in "$STACKER_ROOT"/tests/guest/*.c; do
		programs+=(--program "$(basename "$src" .c)")
	done
	python3 "$STACKER_ROOT/tests/qemu/boottest.py" \
		--kernel "$(cat "$OUT/bzImage.path")" --initrd "$OUT/initramfs.cpio.gz" \
		--log "$OUT/boot-test.log" --timeout "${BOOT_TIMEOUT:-300}" \
		--kunit stacker --kunit stacker_denyname "${programs[@]}"
}

stage setup "$STACKER_ROOT/scripts/setup.sh"
stage lint "$STACKER_ROOT/scripts/lint.sh"
stage host-tests host_tests
stage kernel-build build_kernel
stage initramfs build_initramfs
stage boot-tests boot_tests
log "all tests passed in $(($(date +%s) - total_start)) s"

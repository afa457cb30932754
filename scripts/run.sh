#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The main job (`make run`): set up, build the kernel with stacker, and boot
# it in QEMU with the three real submodules stacked (integrity, mlte,
# capstack), showing the chain, its dispatch tier, the blobs' shared layout,
# and one denial from each, seen from userspace: capstack takes CAP_CHOWN
# away from root, mlte keeps init_t from reading a secret_t file, integrity
# refuses a file without security.ima. CHAIN= picks another chain.
# With SHELL_AFTER=1 the guest gives an interactive shell after the demo.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=${STACKER_OUT:-$STACKER_ROOT/out}
mkdir -p "$OUT"
mode=demo
[ "${SHELL_AFTER:-0}" = 1 ] && mode=shell

stage setup "$STACKER_ROOT/scripts/setup.sh"
stage kernel-build bash -c "'$STACKER_ROOT/scripts/build-kernel.sh' >'$OUT/bzImage.path'"
stage initramfs "$STACKER_ROOT/scripts/mkinitramfs.sh" "$OUT" >/dev/null
log "booting $(cat "$OUT/bzImage.path") (QEMU TCG; the guest powers off by itself)"
stage boot timeout "${BOOT_TIMEOUT:-300}" qemu-system-x86_64 -accel tcg -cpu "$QEMU_CPU" -m 512M -smp 1 \
	-nographic -no-reboot -kernel "$(cat "$OUT/bzImage.path")" \
	-initrd "$OUT/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 quiet stacker_guest=$mode stacker.chain=${CHAIN:-integrity,mlte,capstack} ${APPEND:-}"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Check that KASAN instruments stacker in a kernel built with CONFIG_KASAN
# (the debug kernel, linux/debug.config): every object under
# security/stacker/ was compiled with the kernel-address sanitizer (C:
# -fsanitize=kernel-address, Rust: -Zsanitizer=kernel-address, read from
# its .cmd file), and the Rust crate (stacker_main.o) and the C glue
# (lsm.o) have shadow checks: calls to __asan_report_{load,store}* (the
# slow path of an inline check, or the check itself when outline) or to
# __asan_{load,store}*. Prints, per object, its checks and its calls to
# the instrumented memcpy/memset/memmove (__asan_mem*).
#
# Usage: check-kasan.sh BUILD_DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"

build=${1:?usage: check-kasan.sh BUILD_DIR}
grep -qx 'CONFIG_KASAN=y' "$build/.config" || die "$build is not a KASAN build (no CONFIG_KASAN=y)"
dir=$build/security/stacker
[ -f "$dir/stacker/kernel/stacker_main.o" ] || die "no stacker objects in $dir: build the kernel first"

# The objects that must have shadow checks: the Rust crate and the C glue.
must_check=" stacker/kernel/stacker_main.o stacker/kernel/lsm.o "
bad=0
while IFS= read -r obj; do
	rel=${obj#"$dir"/}
	cmd=$(dirname "$obj")/.$(basename "$obj").cmd
	if ! grep -qE -- '-(fsanitize|Zsanitizer)=kernel-address' "$cmd" 2>/dev/null; then
		log "KASAN: $rel was not compiled with the kernel-address sanitizer ($cmd)"
		bad=1
		continue
	fi
	relocs=$(objdump -r "$obj" | awk '$2 ~ /^R_X86_64_/ {print $3}')
	checks=$(grep -cE '^__asan_(report_)?(load|store)' <<<"$relocs" || true)
	mem=$(grep -cE '^__asan_mem' <<<"$relocs" || true)
	log "KASAN: $rel: $checks shadow checks, $mem instrumented mem* calls"
	if [ "$checks" -eq 0 ] && [[ "$must_check" == *" $rel "* ]]; then
		log "KASAN: $rel has no shadow check"
		bad=1
	fi
done < <(find "$dir" -name '*.o' | sort)
[ "$bad" = 0 ] || die "KASAN does not instrument stacker (above)"
log "KASAN instruments every stacker object"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Where a workload's kernel instructions go, by function, side by side.
#
# Boots the bench kernel and initramfs (as make bench builds them) once per
# variant under QEMU TCG with a plugin (tests/bench/tcg/profile_plugin.c)
# that counts the guest kernel's instructions per translation block while
# /bench/profile (tests/bench/profile.c) runs ROUNDS rounds of WORKLOAD,
# between two marker system calls, under the variant's setup (its policy
# and context, as in make bench). Prints a table of instructions per round
# for each kernel function (the largest first) and writes the raw profiles
# to out/profile/. Counts, not times: the same image and inputs give the
# same figures.
#
# Usage: profile.sh WORKLOAD [ROUNDS [TOP]] [-- VARIANT...]
#   WORKLOAD: create_delete, unix_socket, stat, open_close or fork_exec.
#   VARIANT: names of bench.sh's variants (default: baseline selinux mlte).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: profile.sh WORKLOAD [ROUNDS [TOP]] [-- VARIANT...]"
workload=$1
shift
rounds=2000
top=30
[ $# -gt 0 ] && [ "$1" != -- ] && { rounds=$1; shift; }
[ $# -gt 0 ] && [ "$1" != -- ] && { top=$1; shift; }
[ $# -gt 0 ] && [ "$1" = -- ] && shift
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(baseline selinux mlte)

OUT=${STACKER_OUT:-$STACKER_ROOT/out}/profile
mkdir -p "$OUT"
image=$(FRAGMENTS="$STACKER_ROOT/linux/stacker.config $STACKER_ROOT/linux/bench.config" \
	"$STACKER_ROOT/scripts/build-kernel.sh")
cp "$image" "$OUT/bzImage"
build=$(dirname "$(dirname "$image")")
cp "$build/System.map" "$OUT/System.map"
"$STACKER_ROOT/scripts/mkinitramfs.sh" "$OUT" --bench >/dev/null
gcc -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
	-o "$OUT/profile_plugin.so" "$STACKER_ROOT/tests/bench/tcg/profile_plugin.c" \
	|| die "building the TCG profile plugin failed"
addr() {
	awk -v s="$1" '$3 == s { print $1 }' "$OUT/System.map"
}
start=$(addr __x64_sys_sync)
stop=$(addr __x64_sys_fdatasync)
[ -n "$start" ] && [ -n "$stop" ] || die "no __x64_sys_sync or __x64_sys_fdatasync in System.map"

listed=$("$STACKER_ROOT/scripts/bench.sh" --list)
columns=()
for v in "${variants[@]}"; do
	entry=$(grep "^$v|" <<<"$listed") || die "no bench variant '$v' (scripts/bench.sh --list)"
	IFS='|' read -r _ params _ _ setup <<<"$entry"
	[ -z "$setup" ] || params+=" stacker_bench_setup=$setup"
	log "profiling $workload ($rounds rounds) under $v"
	prof="$OUT/$v-$workload.prof"
	rm -f "$prof"
	timeout "${PROFILE_TIMEOUT:-1200}" qemu-system-x86_64 -accel tcg -cpu "$QEMU_CPU,-rdrand,-rdseed" \
		-m 512M -smp 1 -nographic -no-reboot \
		-plugin "$OUT/profile_plugin.so,start=$start,stop=$stop,out=$prof" \
		-kernel "$OUT/bzImage" -initrd "$OUT/initramfs-bench.cpio.gz" \
		-append "console=ttyS0 panic=-1 quiet nokaslr norandmaps stacker_guest=bench stacker_bench=full $params stacker_profile=$workload:$rounds" \
		</dev/null >"$OUT/$v-$workload.log" 2>&1 || true
	grep -q '^PROFILE-DONE' "$OUT/$v-$workload.log" && [ -s "$prof" ] ||
		die "profile boot '$v' failed; console log: $OUT/$v-$workload.log"
	columns+=("$v=$prof")
done
python3 "$STACKER_ROOT/tests/bench/tcg/profile_report.py" "$OUT/System.map" "$rounds" "$top" "${columns[@]}"

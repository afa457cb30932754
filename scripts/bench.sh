#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: what does stacking cost, side by side.
#
# Boots one kernel image once per variant (chosen with boot parameters, so
# the code is identical) under QEMU TCG with -icount shift=0, where the
# guest clock counts instructions, and runs the same workloads in each.
# Variants are interleaved within each repeat. Writes out/bench/report.md,
# results.csv, raw.csv and overhead.png, and prints the report.
#
# Usage: bench.sh [--quick] [--repeats N] [--list]
#   BENCH_VARIANTS="a b": only these variants (names as in VARIANTS below).
#   STACKER_BUILD_LOCK=FILE: the build stage holds FILE (flock) while it
#            builds: work trees that share one kernel tree take turns. The
#            boots use copies of the images, in the output directory.
#   --quick: one short run of every workload on one variant, with the test
#            kernel; what `make test` runs so that the suite cannot rot.
#   --list:  prints the variants, one "name|parameters|image|workloads|setup"
#            line each (for scripts/profile.sh), and does nothing else.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

quick=0
list=0
repeats=${BENCH_REPEATS:-5}
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--list) list=1 ;;
	--repeats) repeats=$2; shift ;;
	*) die "usage: bench.sh [--quick] [--repeats N] [--list]" ;;
	esac
	shift
done


# name|kernel parameters[|image[|workloads[|setup]]]
#
# image: "" for the bench kernel (default chain capstack,probe_b), or
# "chain3" for the same kernel with default chain capstack,probe_b,probe_c
# (linux/bench-chain3.config): the straight-line tier runs only the
# compile-time default chain. workloads: "" for all of them, "hooks" for
# the per-hook figures only (hook_bench.c). The chain variants measure what
# each further submodule costs per hook in each tier: probe_b and probe_c
# implement every hook and do nothing (modules/probe). The positions
# variants give the chain at boot in another order than the default, so
# that it takes the positions tier (the default chain's order is always
# straight-line); no probe denies, so the order changes no hook's work.
#
# setup: "" for none, or NAME for the guest script tests/bench/setup/NAME.sh
# (passed as stacker_bench_setup=NAME), which run.sh sources before
# anything is measured: it loads the variant's policy and may choose the
# security context the workloads run in, and checks after the run that the
# policy stayed in force and denied nothing; tests/bench/run.sh has the
# contract. A variant with a policy of its own is one line here plus its
# script (and whatever its policy needs in the bench initramfs:
# scripts/mkinitramfs.sh --bench). report.py compares "baseline",
# "selinux" and every "mlte*" variant side by side.
#
# selinux: SELinux with the MLS policy tests/bench/policy.conf, enforcing;
# the workloads run in system_u:system_r:bench_t:s1:c0.c1. lsm=selinux, not
# lsm=capability,selinux: 7.3 always puts capability first (LSM_ORDER_FIRST),
# so both name the same stack, capability + SELinux, the baseline plus
# SELinux.
#
# mlte, mlte-capstack: the mlte submodule through stacker, alone and after
# capstack, with the same policy source, tests/bench/policy.conf, compiled
# by mlte-policy (so both enforce one policy); the
# workloads run in system_u:system_r:bench_t:s1:c0,c1, the same context as
# the selinux variant's. (mlte is not an LSM of its own.)
# mlte-cat1024: mlte with the same policy declaring c0 to c1023 and the
# workloads in system_u:system_r:bench_t:s1:c0.c1023, so every label the hooks decide on
# carries 1,024 categories.
#
# ima, integrity: the in-kernel IMA (in every boot of the image: 7.3
# starts it whatever lsm= says, LSM_ORDER_LAST; idle without a policy) and
# the integrity submodule through stacker, each given the same measure +
# appraise policy on the files of the appraise workloads
# (tests/bench/appraise.c, tests/bench/setup/appraisal.sh), enforcing.
# report.py puts "baseline", "ima" and every "integrity*" variant side by
# side.
VARIANTS=(
	"baseline|lsm=capability"
	"stacker-empty|lsm=stacker stacker.chain="
	"stacker-capstack|lsm=stacker stacker.chain=capstack"
	"stacker-capstack-loop|lsm=stacker stacker.chain=capstack stacker.dispatch=loop"
	"capstack-own-lsm|lsm=capstack stacker.chain="
	"landlock-yama|lsm=landlock,yama"
	"selinux|lsm=selinux|||selinux"
	"mlte|lsm=stacker stacker.chain=mlte|||mlte"
	"mlte-capstack|lsm=stacker stacker.chain=capstack,mlte|||mlte"
	"mlte-cat1024|lsm=stacker stacker.chain=mlte|||mlte-cat1024"
	"ima|lsm=capability|||ima"
	"integrity|lsm=stacker stacker.chain=integrity|||integrity"
	"chain2-straight|lsm=stacker||hooks"
	"chain2-loop|lsm=stacker stacker.dispatch=loop||hooks"
	"chain2-positions|lsm=stacker stacker.chain=probe_b,capstack||hooks"
	"chain2-own-lsm|lsm=capstack,probe_b stacker.chain=||hooks"
	"chain3-straight|lsm=stacker|chain3|hooks"
	"chain3-loop|lsm=stacker stacker.dispatch=loop|chain3|hooks"
	"chain3-positions|lsm=stacker stacker.chain=probe_c,probe_b,capstack|chain3|hooks"
	"chain3-own-lsm|lsm=capstack,probe_b,probe_c stacker.chain=|chain3|hooks"
)
if [ "$list" = 1 ]; then
	printf '%s\n' "${VARIANTS[@]}"
	exit 0
fi
if [ "$quick" = 1 ]; then
	VARIANTS=("stacker-capstack|lsm=stacker stacker.chain=capstack")
	repeats=1
	mode=quick
	# The test kernel (make test builds it just before).
	fragments="$STACKER_ROOT/linux/stacker.config $STACKER_ROOT/linux/test.config"
else
	mode=full
	fragments="$STACKER_ROOT/linux/stacker.config $STACKER_ROOT/linux/bench.config"
fi
if [ -n "${BENCH_VARIANTS:-}" ]; then
	selected=()
	for entry in "${VARIANTS[@]}"; do
		case " $BENCH_VARIANTS " in *" ${entry%%|*} "*) selected+=("$entry") ;; esac
	done
	[ "${#selected[@]}" -gt 0 ] || die "BENCH_VARIANTS='$BENCH_VARIANTS' names no variant"
	VARIANTS=("${selected[@]}")
fi
suffix=
[ "$quick" = 1 ] && suffix=-quick
OUT=${STACKER_OUT:-$STACKER_ROOT/out}/bench$suffix
mkdir -p "$OUT/raw"
rm -f "$OUT"/raw/*.log

# The images the selected variants boot.
images() {
	local entry image
	for entry in "${VARIANTS[@]}"; do
		IFS='|' read -r _ _ image _ _ <<<"$entry"
		echo "${image:-main}"
	done | sort -u
}

build_images() {
	local image built
	for image in $(images); do
		case $image in
		main) built=$(FRAGMENTS=$fragments "$STACKER_ROOT/scripts/build-kernel.sh") ;;
		*) built=$(FRAGMENTS="$fragments $STACKER_ROOT/linux/bench-$image.config" \
			"$STACKER_ROOT/scripts/build-kernel.sh") ;;
		esac
		# A copy: another build of the same configuration may replace
		# the built image while the boots run.
		cp "$built" "$OUT/bzImage-$image"
		echo "$OUT/bzImage-$image" >"$OUT/bzImage-$image.path"
	done
}

build() {
	if [ -n "${STACKER_BUILD_LOCK:-}" ]; then
		(
			flock 9
			build_images
		) 9>"$STACKER_BUILD_LOCK"
	else
		build_images
	fi
	"$STACKER_ROOT/scripts/mkinitramfs.sh" "$OUT" --bench >/dev/null
}

# The guest clock. -icount shift=0: one nanosecond per instruction.
# sleep=off: while the guest idles, its clock jumps to the next timer
# instead of following the host's real time, so where timer interrupts land
# does not depend on the host. -rtc clock=vm with a fixed base: the wall
# clock (file times that tar and gzip see) is the same in every boot.
# BENCH_QEMU_CLOCK replaces these options (for experiments).
read -r -a qemu_clock <<<"${BENCH_QEMU_CLOCK:--icount shift=0,sleep=off -rtc base=2026-01-01T00:00:00,clock=vm}"

boot_variant() { # NAME PARAMS IMAGE WORKLOADS SETUP REPEAT
	local name=$1 params=$2 image=${3:-main} work=${4:-$mode} setup=$5 rep=$6 log="$OUT/raw/$1-$6.log"
	[ "$mode" = quick ] && work=quick
	[ -z "$setup" ] || params+=" stacker_bench_setup=$setup"
	# Bit-for-bit repeatable boots: no RDRAND/RDSEED, no KASLR, no user
	# address randomisation (toolchain.md), and the clock above, so two
	# boots of one variant count the same instructions.
	timeout "${BENCH_TIMEOUT:-900}" qemu-system-x86_64 -accel tcg -cpu "$QEMU_CPU,-rdrand,-rdseed" \
		-m 512M -smp 1 "${qemu_clock[@]}" -nographic -no-reboot \
		-kernel "$(cat "$OUT/bzImage-$image.path")" -initrd "$OUT/initramfs-bench.cpio.gz" \
		-append "console=ttyS0 panic=-1 quiet nokaslr norandmaps stacker_guest=bench stacker_bench=$work $params" \
		</dev/null >"$log" 2>&1 || true
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
	if grep -q '^BENCH-FAIL' "$log" || ! grep -q '^BENCH-DONE' "$log"; then
		grep -E '^BENCH-FAIL|Kernel panic|BUG:' "$log" >&2 || tail -n 20 "$log" >&2
		die "benchmark run '$name' (repeat $rep) failed; console log: $log"
	fi
	if grep -qE '\bBUG:|\bWARNING:|\bOops\b|Kernel panic' "$log"; then
		die "kernel error during benchmark run '$name'; console log: $log"
	fi
	awk -v v="$name" -v r="$rep" '$1 == "BENCH" { print v "," r "," $2 "," $3 "," $4 }' \
		"$log" >>"$OUT/raw.csv"
}

measure() {
	local rep entry name params image work setup
	echo "variant,repeat,workload,value,unit" >"$OUT/raw.csv"
	for rep in $(seq 1 "$repeats"); do
		for entry in "${VARIANTS[@]}"; do
			log "repeat $rep/$repeats: ${entry%%|*}"
			IFS='|' read -r name params image work setup <<<"$entry"
			boot_variant "$name" "$params" "$image" "$work" "$setup" "$rep"
		done
	done
}

report() {
	if [ "$quick" = 1 ]; then
		DISPATCH_ITERS=1000 "$STACKER_ROOT/scripts/dispatch-bench.sh" "$OUT" >/dev/null
		CATEGORY_ITERS=1000 "$STACKER_ROOT/scripts/category-bench.sh" "$OUT" >/dev/null
	else
		"$STACKER_ROOT/scripts/dispatch-bench.sh" "$OUT" >/dev/null
		"$STACKER_ROOT/scripts/category-bench.sh" "$OUT" >/dev/null
	fi
	/usr/bin/python3 "$STACKER_ROOT/tests/bench/report.py" "$OUT" "$mode"
}

stage setup "$STACKER_ROOT/scripts/setup.sh"
stage bench-build build
stage bench-measure measure
stage bench-report report

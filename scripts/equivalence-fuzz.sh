#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The long run of the equivalence test against SELinux (part of `make
# fuzz`): for EQUIVALENCE_SECONDS (default FUZZ_SECONDS, else 600), boots
# the test kernel's `selinux-equivalence` boot again and again, each time
# with six new random policies (EQUIVALENCE_SEEDS for mkinitramfs.sh, seeds
# drawn from /dev/urandom), and asks SELinux and mlte every decision of
# each (tests/guest/mlte_equivalence_test.c). `make test` runs the same
# boot on the fixed seeds 1 to 6.
#
# A boot with a difference (or any other failure) keeps its seeds, policies
# and console log under $STACKER_OUT/fuzz/equivalence/failed-SEEDS, and
# the run fails at the end. Reproduce one with
#   EQUIVALENCE_SEEDS="S1 S2 S3 S4 S5 S6" STACKER_BOOTS=selinux-equivalence make test
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export PATH="$HOME/.cargo/bin:$PATH"
SECONDS_TOTAL=${EQUIVALENCE_SECONDS:-${FUZZ_SECONDS:-600}}
OUT=${STACKER_OUT:-$STACKER_ROOT/out}/fuzz/equivalence
mkdir -p "$OUT"

# The test kernel, as make test builds it.
FRAGMENTS="$STACKER_ROOT/linux/stacker.config $STACKER_ROOT/linux/test.config" \
	"$STACKER_ROOT/scripts/build-kernel.sh" >"$OUT/bzImage.path"

random_seed() {
	od -An -N4 -tu4 /dev/urandom | tr -d ' '
}

start=$(date +%s)
boots=0 policies=0 failed=()
while [ $(($(date +%s) - start)) -lt "$SECONDS_TOTAL" ]; do
	seeds=""
	for _ in 1 2 3 4 5 6; do
		seeds+="$(random_seed) "
	done
	seeds=${seeds% }
	run=$OUT/run
	rm -rf "$run"
	mkdir -p "$run"
	EQUIVALENCE_SEEDS=$seeds "$STACKER_ROOT/scripts/mkinitramfs.sh" "$run" >/dev/null
	log "equivalence: policies of seeds $seeds"
	rc=0
	python3 -B "$STACKER_ROOT/tests/qemu/boots.py" --kernel "$(cat "$OUT/bzImage.path")" \
		--initrd "$run/initramfs.cpio.gz" --out "$run" --timeout 600 \
		--only selinux-equivalence >"$run/boots.txt" 2>&1 || rc=$?
	boots=$((boots + 1))
	policies=$((policies + 6))
	grep -h 'figure: policy' "$run/boot-selinux-equivalence.log.guest" 2>/dev/null \
		| sed 's/^.*figure: /[stacker]   /' >&2 || true
	if [ "$rc" -ne 0 ]; then
		keep=$OUT/failed-${seeds// /-}
		rm -rf "$keep"
		mv "$run" "$keep"
		failed+=("$seeds")
		grep -E '^(FAIL|#)' "$keep/boots.txt" | head -n 40 >&2 || true
		log "equivalence: seeds $seeds FAILED (kept in $keep)"
	fi
done

log "equivalence: $boots boots, $policies random policies in $(($(date +%s) - start)) s, ${#failed[@]} failed"
if [ "${#failed[@]}" -ne 0 ]; then
	die "equivalence differences or failures for seeds: $(printf '[%s] ' "${failed[@]}")"
fi

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Put stacker into the kernel tree and build a bzImage out of tree (O=).
#
# The tree is $KSRC, or the cached Debian source that setup.sh fetched. The
# build directory lives in the cache, keyed by kernel version and by a hash
# of the config fragments and of the changes the patches make (but those to
# tools/testing/; change_set in lib.sh, which ignores the patches' names,
# changelogs, order and grouping), so a changed config never reuses stale
# objects and an unchanged one rebuilds only what changed.
#
# Prints the path of a copy of the bzImage, BUILD/images/bzImage-HASH, on
# stdout. Builds from any number of clones are serialised by a lock in the
# cache.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel_tree
# Config fragments merged onto tinyconfig, in order (later ones win).
FRAGMENTS=${FRAGMENTS:-$STACKER_ROOT/linux/stacker.config}
# CLIPPY=1: stacker's Rust is linted with the kernel's clippy settings, and
# -Dwarnings (Kbuild) makes any lint an error.
KMAKE=(make -C "$KSRC" "${KERNEL_TOOLCHAIN[@]}" CLIPPY=1 CLIPPY_DRIVER=/usr/bin/clippy-driver)

configure() {
	local out=$1 opt key want got f
	local -A wants=()
	if [ -f "$out/.config" ] && [ -f "$out/.stacker-configured" ]; then
		return
	fi
	log "configuring in $out (tinyconfig +$(for f in $FRAGMENTS; do printf ' %s' "$(basename "$f")"; done))"
	mkdir -p "$out"
	"${KMAKE[@]}" O="$out" -s tinyconfig
	# shellcheck disable=SC2086
	KCONFIG_CONFIG="$out/.config" "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" $FRAGMENTS >/dev/null
	"${KMAKE[@]}" O="$out" -s olddefconfig
	# Every option the fragments set (the last setting wins) must have
	# survived olddefconfig; "# CONFIG_X is not set" means unset.
	for f in $FRAGMENTS; do
		while IFS= read -r opt; do
			case "$opt" in
			CONFIG_*=*) wants[${opt%%=*}]=${opt#*=} ;;
			"# CONFIG_"*" is not set") key=${opt#\# }; wants[${key%% *}]="" ;;
			esac
		done <"$f"
	done
	for key in "${!wants[@]}"; do
		want=${wants[$key]}
		got=$(grep -E "^${key}=" "$out/.config" | cut -d= -f2- || true)
		if [ "$got" != "$want" ]; then
			if [ "$key" = CONFIG_RUST ]; then
				"${KMAKE[@]}" O="$out" rustavailable >&2 || true
			fi
			rm -f "$out/.config"
			die "config option $key is '${got:-unset}', the fragments want '${want:-unset}'"
		fi
	done
	touch "$out/.stacker-configured"
}

main() {
	local version out image
	apply_patches
	install_tree
	version=$(kernel_version)
	# shellcheck disable=SC2086
	out="$STACKER_CACHE/build/linux-$version-$(build_key $FRAGMENTS)"
	configure "$out"
	touch "$out"
	# The six configs used last: make run, make test, make test-debug, the
	# two bench images, one spare.
	prune_builds linux 6
	log "building linux $version in $out (-j$KERNEL_JOBS)"
	if ! "${KMAKE[@]}" O="$out" -j"$KERNEL_JOBS" bzImage >"$out/build.log" 2>&1; then
		# Each compiler diagnostic, up to the blank line that ends it.
		awk '/^(error|warning)/ {p=1} p && /^$/ {p=0} p' "$out/build.log" | head -n 150 >&2
		tail -n 10 "$out/build.log" >&2
		die "kernel build failed; full log: $out/build.log"
	fi
	# A copy named by its contents: another build into the same
	# directory (a second clone of stacker with other sources) cannot
	# change the image this run hands out.
	image=$out/images/bzImage-$(sha256sum "$out/arch/x86/boot/bzImage" | cut -c1-12)
	mkdir -p "$out/images"
	cp "$out/arch/x86/boot/bzImage" "$image"
	# shellcheck disable=SC2012
	ls -t "$out"/images/bzImage-* | tail -n +9 | xargs -r rm -f
	printf '%s\n' "$image"
}

lock_builds
main "$@"

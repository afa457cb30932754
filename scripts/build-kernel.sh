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
# The C compiler and binutils: GCC 12 and GNU binutils, or, when a fragment
# has the line "# stacker-toolchain: llvm" (linux/debug.config: with Rust,
# KASAN needs CC_IS_CLANG), clang, ld.lld and the llvm-* tools of LLVM 19
# (LLVM=$LLVM_BIN/, Documentation/kbuild/llvm.rst), the LLVM of the
# libclang that bindgen uses. The last such line wins;
# STACKER_TOOLCHAIN=gcc|llvm overrides them all. rustc is Debian's either
# way (its own LLVM 22).
LLVM_BIN=/usr/lib/llvm-19/bin
fragment_toolchain() {
	local f line tc=gcc
	for f in $FRAGMENTS; do
		[ -f "$f" ] || die "no config fragment $f"
		while IFS= read -r line; do
			case "$line" in
			"# stacker-toolchain: "*) tc=${line#\# stacker-toolchain: } ;;
			esac
		done <"$f"
	done
	printf '%s\n' "$tc"
}
TOOLCHAIN=${STACKER_TOOLCHAIN:-$(fragment_toolchain)}
# CLIPPY=1: stacker's Rust is linted with the kernel's clippy settings, and
# -Dwarnings (Kbuild) makes any lint an error.
KMAKE=(make -C "$KSRC" "${KERNEL_TOOLCHAIN[@]}" CLIPPY=1 CLIPPY_DRIVER=/usr/bin/clippy-driver)
case "$TOOLCHAIN" in
gcc) ;;
llvm)
	for tool in clang ld.lld llvm-ar llvm-nm llvm-objcopy; do
		[ -x "$LLVM_BIN/$tool" ] || die "the llvm toolchain needs $LLVM_BIN/$tool: run scripts/setup.sh"
	done
	KMAKE+=(LLVM="$LLVM_BIN/")
	;;
*) die "unknown toolchain '$TOOLCHAIN' (a fragment's '# stacker-toolchain:' line or STACKER_TOOLCHAIN): gcc or llvm" ;;
esac

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
				if grep -q '^CONFIG_KASAN=y' "$out/.config" && [ "$TOOLCHAIN" != llvm ]; then
					log "with KASAN, Rust needs a clang build (init/Kconfig: depends on !KASAN || CC_IS_CLANG): add '# stacker-toolchain: llvm' to the fragment"
				fi
			fi
			rm -f "$out/.config"
			die "config option $key is '${got:-unset}', the fragments want '${want:-unset}'"
		fi
	done
	touch "$out/.stacker-configured"
}

toolchain_name() {
	case "$TOOLCHAIN" in
	gcc) gcc --version | head -n1 ;;
	llvm) "$LLVM_BIN/clang" --version | head -n1 ;;
	esac
}

main() {
	local version key out image
	apply_patches
	install_tree
	version=$(kernel_version)
	# shellcheck disable=SC2086
	key=$(build_key $FRAGMENTS)
	# The toolchain is part of the key (unless it is GCC, so that the GCC
	# builds keep their directories): GCC and clang objects never share
	# a build directory.
	if [ "$TOOLCHAIN" != gcc ]; then
		key=$(printf '%s toolchain: %s %s\n' "$key" "$TOOLCHAIN" "$LLVM_BIN" | sha256sum | cut -c1-12)
	fi
	out="$STACKER_CACHE/build/linux-$version-$key"
	configure "$out"
	touch "$out"
	# The six configs used last: make run, make test, make test-debug, the
	# two bench images, one spare.
	prune_builds linux 6
	log "building linux $version in $out (-j$KERNEL_JOBS, $(toolchain_name))"
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

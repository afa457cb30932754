#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Put stacker into the kernel tree and build a bzImage out of tree (O=).
#
# The tree is $KSRC, or the cached Debian source that setup.sh fetched. The
# build directory lives in the cache, keyed by kernel version and by a hash
# of the config fragment and the patches (but those to tools/testing/), so
# a changed config never reuses stale objects and an unchanged one rebuilds
# only what changed.
#
# Prints the path of a copy of the bzImage, BUILD/images/bzImage-HASH, on
# stdout. Builds from any number of clones are serialised by a lock in the
# cache.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

export PATH="$HOME/.cargo/bin:$PATH"
KSRC=${KSRC:-$STACKER_CACHE/linux}
KSRC=$(cd "$KSRC" 2>/dev/null && pwd -P) || die "no kernel tree at '$KSRC': run scripts/setup.sh or set KSRC"
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
KMAKE=(make -C "$KSRC" RUSTC=/usr/bin/rustc BINDGEN=bindgen LIBCLANG_PATH=/usr/lib/llvm-19/lib
	CLIPPY=1 CLIPPY_DRIVER=/usr/bin/clippy-driver)
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
JOBS=$(($(nproc) + 1))

# The files of this repository that land in security/stacker/.
TREE_FILES=(Kbuild Kconfig stacker blob-layout capstack modules)

# Applies linux/patches/*.patch to $KSRC, safely any number of times. A copy
# of each applied patch is kept in $KSRC/.stacker-patches, so that a patch
# that changed (or went away) since it was applied is first reversed.
apply_patches() {
	local state="$KSRC/.stacker-patches" p name old
	mkdir -p "$state"
	for old in "$state"/*.patch; do
		[ -f "$old" ] || continue
		name=$(basename "$old")
		if [ ! -f "$STACKER_ROOT/linux/patches/$name" ] ||
			! cmp -s "$old" "$STACKER_ROOT/linux/patches/$name"; then
			patch -d "$KSRC" -p1 -R -s -f <"$old" >/dev/null \
				|| die "cannot reverse the old $name in $KSRC"
			rm -f "$old"
			log "reversed old $name"
		fi
	done
	for p in "$STACKER_ROOT"/linux/patches/*.patch; do
		name=$(basename "$p")
		[ -f "$state/$name" ] && continue
		if patch -d "$KSRC" -p1 -R --dry-run -s -f <"$p" >/dev/null 2>&1; then
			cp "$p" "$state/$name" # applied before this bookkeeping existed
			continue
		fi
		patch -d "$KSRC" -p1 --dry-run -s -f <"$p" >/dev/null 2>&1 \
			|| die "patch $name applies neither forwards nor backwards to $KSRC"
		patch -d "$KSRC" -p1 -s -f <"$p" >/dev/null
		cp "$p" "$state/$name"
		log "applied $name"
	done
}

# Copies the tree without its file times (-rlpD, not -a), by content
# (--checksum): a changed file gets a new time, so make always rebuilds it,
# even when the working copy's file is older than the last build's objects
# (a file restored from a backup, a branch switched back).
install_tree() {
	local dst="$KSRC/security/stacker" f
	mkdir -p "$dst"
	for f in "${TREE_FILES[@]}"; do
		[ -e "$STACKER_ROOT/$f" ] || die "missing $f in $STACKER_ROOT"
	done
	(cd "$STACKER_ROOT" && rsync -rlpD --checksum --delete --exclude target --exclude 'Cargo.*' --exclude host --exclude host.rs \
		--exclude '*.o' --exclude '.*.cmd' "${TREE_FILES[@]}" "$dst/")
	# Remove anything in $dst that is no longer part of the tree.
	for f in "$dst"/* "$dst"/.[!.]*; do
		[ -e "$f" ] || continue
		case " ${TREE_FILES[*]} " in *" $(basename "$f") "*) ;; *) rm -rf "$f" ;; esac
	done
}

kernel_version() {
	make -s -C "$KSRC" kernelversion
}

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

# Keeps the build directories of the six configs used last (make run,
# make test, make test-debug, the two bench images, one spare); a build
# directory is about 350 MB (the debug one, clang and KASAN, 900 MB).
prune_builds() {
	local old
	# shellcheck disable=SC2012
	for old in $(ls -dt "$STACKER_CACHE"/build/linux-* 2>/dev/null | tail -n +7); do
		log "removing old build directory $old"
		rm -rf "$old"
	done
}

# The patches the image is built from: all but those that touch only
# tools/testing/ (the selftests, which the kernel build never reads; the
# initramfs builds them, scripts/mkinitramfs.sh), so that a selftest patch
# does not start a build directory of its own.
kernel_patches() {
	local p
	for p in "$STACKER_ROOT"/linux/patches/*.patch; do
		if grep -E '^\+\+\+ ' "$p" | grep -qvE '^\+\+\+ b/tools/testing/'; then
			printf '%s\n' "$p"
		fi
	done
}

# patch_changes PATCH...: what the patches change, without their mail
# headers, changelogs, blob ids and signature, so that rewording a
# changelog does not start a build directory of its own.
patch_changes() {
	awk '/^--- (a\/|\/dev\/null)/ {d=1} /^-- $/ {d=0} d && !/^(diff --git|index) /' "$@"
}

toolchain_name() {
	case "$TOOLCHAIN" in
	gcc) gcc --version | head -n1 ;;
	llvm) "$LLVM_BIN/clang" --version | head -n1 ;;
	esac
}

main() {
	local version key out patches image
	apply_patches
	install_tree
	version=$(kernel_version)
	mapfile -t patches < <(kernel_patches)
	# The toolchain is part of the key (unless it is GCC, so that the GCC
	# builds keep their directories): GCC and clang objects never share
	# a build directory.
	# shellcheck disable=SC2086
	key=$({
		cat $FRAGMENTS
		patch_changes "${patches[@]}"
		[ "$TOOLCHAIN" = gcc ] || echo "toolchain: $TOOLCHAIN $LLVM_BIN"
	} | sha256sum | cut -c1-12)
	out="$STACKER_CACHE/build/linux-$version-$key"
	configure "$out"
	touch "$out"
	prune_builds
	log "building linux $version in $out (-j$JOBS, $(toolchain_name))"
	if ! "${KMAKE[@]}" O="$out" -j"$JOBS" bzImage >"$out/build.log" 2>&1; then
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

# One build at a time in the shared tree and cache: the tree is patched and
# security/stacker rewritten in place.
mkdir -p "$STACKER_CACHE"
exec 9>"$STACKER_CACHE/build.lock"
flock 9
main "$@"

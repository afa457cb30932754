# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the stacker scripts: paths, logging and stage timing.

# shellcheck disable=SC2034 # used by the scripts that source this file
STACKER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STACKER_CACHE=${STACKER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stacker}
# The kernel package this project targets (see Documentation/admin-guide.rst).
KERNEL_PKG=${KERNEL_PKG:-linux-source-7.3}
KERNEL_SUITE=${KERNEL_SUITE:-trixie-backports}
# The guest CPU of make run and make bench: QEMU's max without LA57, as
# tests/qemu/boottest.py's GUEST_CPU says why (a race in the kernel's boot).
QEMU_CPU=max,la57=off

log() { printf '[stacker] %s\n' "$*" >&2; }
die() { printf '[stacker] error: %s\n' "$*" >&2; exit 1; }

# The patches of linux/patches that change something, one path a line, in
# order: every linux/patches/*.patch with at least one hunk. The series'
# cover letter (0000-cover-letter.patch, from git format-patch
# --cover-letter) has none and is left out, as is any other patch that is
# only a message.
stacker_patches() {
	local p
	for p in "$STACKER_ROOT"/linux/patches/*.patch; do
		if [ -f "$p" ] && grep -qE '^@@ -[0-9]+(,[0-9]+)? \+[0-9]+(,[0-9]+)? @@' "$p"; then
			printf '%s\n' "$p"
		fi
	done
}

# patch_paths PATCH: the paths a patch writes to, as its "+++ " lines name
# them (b/PATH, or /dev/null for a file it deletes).
patch_paths() {
	grep -E '^\+\+\+ ' "$1" | cut -c5- | cut -f1
}

# patch_changes PATCH...: what the patches change, without their mail
# headers, changelogs, blob ids, signature and the function names git
# writes after a hunk's line numbers ("@@ -1,2 +1,3 @@ int f(void)"), so
# that rewording a changelog, or the same diff made by diff -u instead of
# git, is the same change.
patch_changes() {
	[ "$#" -gt 0 ] || return 0
	awk 'FNR == 1 {d=0} /^--- (a\/|\/dev\/null)/ {d=1} /^-- $/ {d=0}
		d && /^@@ / {sub(/ @@ .*/, " @@")}
		d && !/^(diff --git|index) /' "$@"
}

# change_set PATCH...: one hash for the set of changes the patches make,
# file by file, whatever the patches are called, how they are worded, in
# which order they come and how the changes are grouped into patches.
change_set() {
	patch_changes "$@" | awk '/^--- (a\/|\/dev\/null)/ {if (s != "") print s; s = ""}
		{s = s $0 "\001"} END {if (s != "") print s}' | LC_ALL=C sort | sha256sum | cut -c1-64
}

# stage NAME CMD...: run CMD, print when it starts and how long it took;
# on failure print "stage 'NAME': FAILED (exit N) after S s" and return N.
#
# CMD runs in a subshell with `set -e`: a failing command inside a stage
# function ends the stage, as it would a script. (The caller's errexit is
# turned off around the subshell so that its failure comes back here as a
# status instead of ending the script before the FAILED line. Call stage
# as a plain command, not in `if`/`&&`/`||`: there bash ignores -e in
# everything the call runs, the subshell's `set -e` included.) A stage
# runs in a subshell, so variables it sets do not reach the caller.
stage() {
	local name=$1 start end rc errexit=0
	shift
	start=$(date +%s)
	log "stage '$name': start"
	case $- in *e*) errexit=1 ;; esac
	set +e
	(
		set -e
		"$@"
	)
	rc=$?
	if [ "$errexit" = 1 ]; then
		set -e
	fi
	end=$(date +%s)
	if [ "$rc" -eq 0 ]; then
		log "stage '$name': done in $((end - start)) s"
	else
		log "stage '$name': FAILED (exit $rc) after $((end - start)) s"
	fi
	return "$rc"
}

# callgrind_per_iteration N FUNCTIONS BIN ARGS...: the instructions per
# iteration that callgrind counts in the functions FUNCTIONS (a
# space-separated list of whole, demangled names) and everything they call
# (each must not call another) when `BIN ARGS...` runs, where an argument "@N" stands for the iteration
# count. It is the difference between 2N and N iterations, divided by N, so
# that setup and the loop's entry cost cancel out. Prints nothing and fails
# when callgrind gave no count.
callgrind_per_iteration() {
	local n=$1 functions=$2 bin=$3 a b
	shift 3
	a=$(callgrind_count "$n" "$functions" "$bin" "$@")
	b=$(callgrind_count $((2 * n)) "$functions" "$bin" "$@")
	[ -n "$a" ] && [ -n "$b" ] || return 1
	awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.1f", (b - a) / n }'
}

# callgrind_count N FUNCTIONS BIN ARGS...: the count of one run (see
# above), collected from the entry of each of FUNCTIONS to its return
# (--toggle-collect on the exact name). Exact names, never globs: a glob
# that also matches a callee (`*decision_loop*` matches the function's
# closures) toggles collection off inside the callee, and the figure
# silently leaves its work out. Each name must be a function of BIN (nm),
# so a renamed function fails instead of counting nothing.
callgrind_count() {
	local n=$1 bin=$3 arg fn functions=() toggles=() args=()
	read -r -a functions <<<"$2"
	shift 3
	for fn in "${functions[@]}"; do
		case $fn in
		*'*'* | *'?'*) echo "callgrind_count: $fn: a whole function name, not a pattern" >&2; return 1 ;;
		esac
		nm -C "$bin" | awk -v f="$fn" '{ $1 = $2 = ""; sub(/^  /, "") } $0 == f { found = 1 } END { exit !found }' \
			|| { echo "callgrind_count: no function $fn in $bin" >&2; return 1; }
		toggles+=("--toggle-collect=$fn")
	done
	for arg in "$@"; do
		[ "$arg" = @N ] && arg=$n
		args+=("$arg")
	done
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "${toggles[@]}" \
		"$bin" "${args[@]}" 2>&1 | awk '/Collected :/ {print $NF}'
}

# --- The kernel tree and its builds (build-kernel.sh, kunit.sh) ---

# The make variables that give the kernel's Rust its toolchain: Debian's
# rustc (with the library sources; the rustup rustc first on PATH has none),
# bindgen from ~/.cargo/bin (kernel_tree puts it on PATH) and libclang 19.
KERNEL_TOOLCHAIN=(RUSTC=/usr/bin/rustc BINDGEN=bindgen LIBCLANG_PATH=/usr/lib/llvm-19/lib)
KERNEL_JOBS=$(($(nproc) + 1))

# The files of this repository that land in security/stacker/.
TREE_FILES=(.kunitconfig Kbuild Kconfig stacker blob-layout capstack modules)

# kernel_tree: sets KSRC to the kernel tree ($KSRC, or the cached Debian
# source that setup.sh fetched), as a physical path, and puts ~/.cargo/bin
# (bindgen) first on PATH.
kernel_tree() {
	export PATH="$HOME/.cargo/bin:$PATH"
	KSRC=${KSRC:-$STACKER_CACHE/linux}
	KSRC=$(cd "$KSRC" 2>/dev/null && pwd -P) || die "no kernel tree at '$KSRC': run scripts/setup.sh or set KSRC"
}

# lock_builds: one build at a time in the shared tree and cache (the tree
# is patched and security/stacker rewritten in place): takes the cache's
# build lock, on file descriptor 9, for the rest of the script.
lock_builds() {
	mkdir -p "$STACKER_CACHE"
	exec 9>"$STACKER_CACHE/build.lock"
	if ! flock -n 9; then
		log "waiting for the build lock ($STACKER_CACHE/build.lock): another build is running"
		flock 9
	fi
}

# Applies linux/patches to $KSRC (the patches with hunks: stacker_patches,
# so not the cover letter), safely any number of times. A copy of each
# applied patch is kept in $KSRC/.stacker-patches, so that a patch that
# changed (or went away) since it was applied is first reversed.
#
# What counts is the change, not the file: when the applied copies make the
# very changes the patches make (the same hunks, however the patches are
# named, worded, ordered or grouped; change_set in lib.sh), the tree is
# left as it is, with the bookkeeping it has. So a clone with an older
# edition of the same series does not revert and reapply it, which would
# give the patched headers (uapi/linux/lsm.h is read by most of the kernel)
# a new time and make every build directory rebuild what includes them. Nor
# does an applied copy whose hunks are those of a patch under another name.
apply_patches() {
	local state="$KSRC/.stacker-patches" p name old i sum
	local -a wanted applied
	local -A wanted_sums=() kept_sums=()
	mkdir -p "$state"
	mapfile -t wanted < <(stacker_patches)
	[ "${#wanted[@]}" -gt 0 ] || die "no patches in $STACKER_ROOT/linux/patches"
	applied=()
	for old in "$state"/*.patch; do
		[ -f "$old" ] && applied+=("$old")
	done
	if [ "${#applied[@]}" -gt 0 ] && [ "$(change_set "${applied[@]}")" = "$(change_set "${wanted[@]}")" ]; then
		return
	fi
	for p in "${wanted[@]}"; do
		wanted_sums[$(patch_changes "$p" | sha256sum | cut -c1-64)]=1
	done
	# Reverse, last first, each applied copy whose changes no patch makes.
	# The others stay applied; their copies are replaced by the patches
	# that make the same changes, under the patches' names.
	for ((i = ${#applied[@]} - 1; i >= 0; i--)); do
		old=${applied[i]}
		name=$(basename "$old")
		sum=$(patch_changes "$old" | sha256sum | cut -c1-64)
		if [ -z "${wanted_sums[$sum]:-}" ]; then
			patch -d "$KSRC" -p1 -R -s -f <"$old" >/dev/null \
				|| die "cannot reverse the old $name in $KSRC"
			log "reversed old $name"
		else
			kept_sums[$sum]=1
		fi
		rm -f "$old"
	done
	for p in "${wanted[@]}"; do
		name=$(basename "$p")
		sum=$(patch_changes "$p" | sha256sum | cut -c1-64)
		if [ -n "${kept_sums[$sum]:-}" ]; then
			cp "$p" "$state/$name"
			continue
		fi
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

# Copies TREE_FILES into $KSRC/security/stacker without their file times
# (-rlpD, not -a), by content (--checksum): a changed file gets a new time,
# so make always rebuilds it, even when the working copy's file is older
# than the last build's objects (a file restored from a backup, a branch
# switched back), and a file removed rebuilds the Rust crate.
install_tree() {
	local dst="$KSRC/security/stacker" f
	mkdir -p "$dst"
	for f in "${TREE_FILES[@]}"; do
		[ -e "$STACKER_ROOT/$f" ] || die "missing $f in $STACKER_ROOT"
	done
	local changes
	changes=$(cd "$STACKER_ROOT" && rsync -rlpD --checksum --delete --itemize-changes \
		--exclude target --exclude 'Cargo.*' --exclude host --exclude host.rs \
		--exclude '*.o' --exclude '.*.cmd' "${TREE_FILES[@]}" "$dst/")
	# A Rust file removed or moved (objects.rs split into objects/) is a
	# dependency that make ignores once it is gone (fixdep's wildcard), and
	# the new files are in no dependency list yet: without this the crate
	# would not be rebuilt. Touch its root when a file went away.
	if grep -q '^\*deleting' <<<"$changes"; then
		touch "$dst/stacker/kernel/stacker_main.rs"
	fi
	# Remove anything in $dst that is no longer part of the tree.
	for f in "$dst"/* "$dst"/.[!.]*; do
		[ -e "$f" ] || continue
		case " ${TREE_FILES[*]} " in
		*" $(basename "$f") "*) ;;
		*)
			rm -rf "$f"
			touch "$dst/stacker/kernel/stacker_main.rs"
			;;
		esac
	done
}

kernel_version() {
	make -s -C "$KSRC" kernelversion
}

# The patches the image is built from: all but those that touch only
# tools/testing/ (the selftests, which the kernel build never reads; the
# initramfs builds them, scripts/mkinitramfs.sh; and kunit.py), so that
# such a patch does not start a build directory of its own.
kernel_patches() {
	local p
	while IFS= read -r p; do
		if grep -qvE '^b/tools/testing/' <<<"$(patch_paths "$p")"; then
			printf '%s\n' "$p"
		fi
	done < <(stacker_patches)
}

# build_key CONFIG...: the 12 hex digits that name a build directory: a
# hash of the config files and of the set of changes kernel_patches make
# (change_set: not their names, wording or order).
build_key() {
	local patches
	mapfile -t patches < <(kernel_patches)
	{ cat "$@"; change_set "${patches[@]}"; } | sha256sum | cut -c1-12
}

# prune_builds KIND N: keeps the N build directories of KIND
# ($STACKER_CACHE/build/KIND-*) used last. A build directory is about
# 350 MB (the debug one more).
prune_builds() {
	local old
	# shellcheck disable=SC2012
	for old in $(ls -dt "$STACKER_CACHE/build/$1"-* 2>/dev/null | tail -n +$(($2 + 1))); do
		log "removing old build directory $old"
		rm -rf "$old"
	done
}

# The KUnit suites of stacker (#[kunit_tests(NAME)]): each must run and
# pass in every boot test (test.sh) and in kunit.py's run (kunit.sh).
KUNIT_SUITES=(stacker stacker_denyname stacker_integrity)

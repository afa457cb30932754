# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the stacker scripts: paths, logging and stage timing.

# shellcheck disable=SC2034 # used by the scripts that source this file
STACKER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STACKER_CACHE=${STACKER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stacker}
# The kernel package this project targets (see Documentation/admin-guide.rst).
KERNEL_PKG=${KERNEL_PKG:-linux-source-7.3}
KERNEL_SUITE=${KERNEL_SUITE:-trixie-backports}

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

# callgrind_per_iteration N PATTERNS BIN ARGS...: the instructions per
# iteration that callgrind counts in the functions matching PATTERNS (a
# space-separated list of --toggle-collect patterns) when `BIN ARGS...`
# runs, where an argument "@N" stands for the iteration count. It is the
# difference between 2N and N iterations, divided by N, so that setup and
# the loop's entry cost cancel out. Prints nothing and fails when callgrind
# gave no count.
callgrind_per_iteration() {
	local n=$1 patterns=$2 bin=$3 a b
	shift 3
	a=$(callgrind_count "$n" "$patterns" "$bin" "$@")
	b=$(callgrind_count $((2 * n)) "$patterns" "$bin" "$@")
	[ -n "$a" ] && [ -n "$b" ] || return 1
	awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.1f", (b - a) / n }'
}

# callgrind_count N PATTERNS BIN ARGS...: the count of one run (see above).
callgrind_count() {
	local n=$1 bin=$3 arg pattern patterns=() toggles=() args=()
	read -r -a patterns <<<"$2"
	shift 3
	for pattern in "${patterns[@]}"; do
		toggles+=("--toggle-collect=$pattern")
	done
	for arg in "$@"; do
		[ "$arg" = @N ] && arg=$n
		args+=("$arg")
	done
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "${toggles[@]}" \
		"$bin" "${args[@]}" 2>&1 | awk '/Collected :/ {print $NF}'
}

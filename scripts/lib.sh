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

# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Guest setup of the bench variants "mlte*" (stacker.chain=...mlte...):
# loads the bench policy (tests/bench/policy.conf, the selinux variant's
# source, compiled on the host by mlte-policy: /bench/mlte/policy in the
# initramfs), checks through mlte/access that it gives the selinux
# variant's answers to the same MLS questions (selinux.sh), and moves the
# shell into system_u:system_r:bench_t:s1:c0,c1, the context the workloads
# run in.
#
# Sourced by run.sh (see there for the contract): setup_load runs once, in
# /init's context (kernel_t, the policy's "sid kernel"); setup_check runs
# in bench_t before and after the workloads.

# The appraise workloads (run.sh) give files to another owner with
# security.ima and execute them from /tmp, which this policy does not let
# bench_t do: not run in this variant.
# shellcheck disable=SC2034 # read by run.sh, which sources this file
setup_skips_appraise=1

mlte=/sys/kernel/security/stacker/mlte
# A setup that sources this file may choose another policy and context
# first (mlte-cat1024.sh).
policy=${mlte_policy:-/bench/mlte/policy}
bench_context=${mlte_bench_context:-system_u:system_r:bench_t:s1:c0,c1}
# Where the first check leaves the denial count, for the last one.
denials_file=/tmp/mlte-denials

denials() {
	sed -n 's/^denials //p' $mlte/status
}

# The bit of permission $2 in mlte's class $1: its place in the class's
# line of the class list the initramfs carries (written from
# modules/mlte/classes.rs by tests/mlte/equivalence.py).
perm_bit() {
	awk -v c="$1" -v p="$2" \
		'$1 == c { for (i = 2; i <= NF; i++) if ($i == p) print i - 2 }' \
		/etc/mlte/equivalence/classes
}

# Whether the policy allows $1 (a context) permission bit $4 of class $3
# on $2, as mlte/access answers (allowed vector in hex, first word).
mlte_allows() {
	exec 3<>"$mlte/access" || return 2
	printf '%s %s %s' "$1" "$2" "$3" >&3
	read -r _allowed _ <&3
	exec 3>&-
	[ $(((0x$_allowed >> $4) & 1)) = 1 ]
}

expect() {
	_want=$1
	shift
	if mlte_allows "$@"; then _got=yes; else _got=no; fi
	echo "BENCH-SETUP mlte: $1 -> $2 $3 bit $4: $_got"
	[ "$_got" = "$_want" ] || { echo "BENCH-FAIL mlte: policy gives '$_got' for $* (expected $_want)"; return 1; }
}

setup_load() {
	grep -qx mlte /sys/kernel/security/stacker/chain ||
		{ echo "BENCH-FAIL mlte: not in the chain ($(tr '\n' ' ' </sys/kernel/security/stacker/chain))"; return 1; }
	# The policy file takes a policy in one write at offset 0: one block.
	dd if="$policy" of=$mlte/policy bs="$(wc -c <"$policy")" count=1 \
		2>/dev/null || { echo "BENCH-FAIL mlte: loading the policy failed"; return 1; }
	[ "$(cat $mlte/enforce)" = 1 ] || { echo "BENCH-FAIL mlte: not enforcing"; return 1; }
	# The selinux variant's questions (selinux.sh), with its answers, at
	# the workloads' own level (mlte-cat1024's: s1:c0.c1023).
	tmp=system_u:object_r:bench_tmp_t
	own=${bench_context##*:bench_t:}
	read=$(perm_bit file read)
	write=$(perm_bit file write)
	if [ -z "$read" ] || [ -z "$write" ]; then
		echo "BENCH-FAIL mlte: no file read or write bit in /etc/mlte/equivalence/classes"
		return 1
	fi
	expect yes "$bench_context" "$tmp:$own" file "$write" || return 1
	expect yes "$bench_context" $tmp:s0 file "$read" || return 1
	expect no "$bench_context" $tmp:s0 file "$write" || return 1
	expect no "$bench_context" $tmp:s2:c0.c1 file "$read" || return 1
	expect no "$bench_context" system_u:object_r:root_t:s0 file "$write" || return 1
	# /init's console is a node of the initramfs (root_t chr_file, s0):
	# bench_t may not write down to it or ioctl it. The same device in
	# /dev (devtmpfs, a multilevel object) takes the workloads' output, as
	# in the selinux variant (selinux.sh).
	exec </dev/console >/dev/console 2>&1
	# The context the workloads run in: kernel_t may set any.
	printf 'mlte:%s' "$bench_context" >/proc/self/attr/current ||
		{ echo "BENCH-FAIL mlte: setting the context failed"; return 1; }
}

setup_check() {
	[ "$(cat $mlte/enforce)" = 1 ] || { echo "BENCH-FAIL mlte: not enforcing"; return 1; }
	grep -q '^loaded:' $mlte/policy || { echo "BENCH-FAIL mlte: no policy loaded"; return 1; }
	_ctx=$(cat /proc/self/attr/current)
	[ "$_ctx" = "$bench_context" ] ||
		{ echo "BENCH-FAIL mlte: running in '$_ctx', not $bench_context"; return 1; }
	[ -e $denials_file ] || denials >$denials_file
	_now=$(denials)
	if [ "$_now" != "$(cat $denials_file)" ]; then
		dmesg | grep 'mlte: avc: denied' | head -n 20 | sed 's/^/BENCH-DMESG /'
		echo "BENCH-FAIL mlte: access denied during the run ($_now denials, $(cat $denials_file) expected)"
		return 1
	fi
	echo "BENCH-SETUP mlte: policy loaded, enforcing; in $_ctx; no denials"
}

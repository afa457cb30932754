# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Guest setup of the bench variants "mlte*" (stacker.chain=...mlte...):
# loads the mlte policy of tests/bench/mlte/ (compiled on the host by
# mlte-policy, /bench/mlte/policy in the initramfs), the counterpart of
# the selinux variant's, and moves the shell into system_u:system_r:bench_t:s1:c0,c1, the
# context the workloads run in.
#
# Sourced by run.sh (see there for the contract): setup_load runs once, in
# /init's context (init_t, the policy's "sid kernel"); setup_check runs in
# bench_t before and after the workloads.

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

setup_load() {
	grep -qx mlte /sys/kernel/security/stacker/chain ||
		{ echo "BENCH-FAIL mlte: not in the chain ($(tr '\n' ' ' </sys/kernel/security/stacker/chain))"; return 1; }
	# The policy file takes a policy in one write at offset 0: one block.
	dd if="$policy" of=$mlte/policy bs="$(wc -c <"$policy")" count=1 \
		2>/dev/null || { echo "BENCH-FAIL mlte: loading the policy failed"; return 1; }
	[ "$(cat $mlte/enforce)" = 1 ] || { echo "BENCH-FAIL mlte: not enforcing"; return 1; }
	# An s0 file for the MLS probe (init_t creates it: system_u:object_r:bench_tmp_t:s0).
	echo probe >/tmp/mlte-s0 || return 1
	# The context the workloads run in: init_t may set any.
	printf 'mlte:%s' $bench_context >/proc/self/attr/current ||
		{ echo "BENCH-FAIL mlte: setting the context failed"; return 1; }
}

setup_check() {
	[ "$(cat $mlte/enforce)" = 1 ] || { echo "BENCH-FAIL mlte: not enforcing"; return 1; }
	grep -q '^loaded:' $mlte/policy || { echo "BENCH-FAIL mlte: no policy loaded"; return 1; }
	_ctx=$(cat /proc/self/attr/current)
	[ "$_ctx" = $bench_context ] ||
		{ echo "BENCH-FAIL mlte: running in '$_ctx', not $bench_context"; return 1; }
	if [ ! -e $denials_file ]; then
		# Before the workloads: the MLS rules are in force. Reading
		# down works; writing down is the one denial expected.
		cat /tmp/mlte-s0 >/dev/null || { echo "BENCH-FAIL mlte: read down denied"; return 1; }
		if (echo x >/tmp/mlte-s0) 2>/dev/null; then
			echo "BENCH-FAIL mlte: system_u:system_r:bench_t:s1 wrote down to an s0 file"
			return 1
		fi
		denials >$denials_file
		echo "BENCH-SETUP mlte: read down allowed, write down denied ($(cat $denials_file) denial)"
	fi
	_now=$(denials)
	if [ "$_now" != "$(cat $denials_file)" ]; then
		dmesg | grep 'mlte: avc: denied' | head -n 20 | sed 's/^/BENCH-DMESG /'
		echo "BENCH-FAIL mlte: access denied during the run ($_now denials, $(cat $denials_file) expected)"
		return 1
	fi
	echo "BENCH-SETUP mlte: policy loaded, enforcing; in $_ctx; no denials but the probe's"
}

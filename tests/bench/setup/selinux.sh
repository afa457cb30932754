# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# Guest setup of the bench variant "selinux" (lsm=selinux): loads the MLS
# policy of tests/bench/selinux/ (compiled on the host by
# scripts/selinux-policy.sh, /bench/selinux/policy in the initramfs),
# switches to enforcing, and makes bench_t:s1:c0,c1 the domain the
# workloads run in. No libselinux in the guest: selinuxfs does it all.
#
# Sourced by run.sh (see there for the contract): setup_load runs once, in
# /init's domain (kernel_t, the initial "kernel" SID), then run.sh
# re-executes itself, which enters bench_t through the exec context set
# here; setup_check runs in bench_t before and after the workloads.

# The appraise workloads (run.sh) give files to another owner with
# security.ima and execute them from /tmp, which this policy does not let
# bench_t do: not run in this variant.
# shellcheck disable=SC2034 # read by run.sh, which sources this file
setup_skips_appraise=1

se=/sys/fs/selinux
# As the kernel writes it back (/proc/self/attr/current): c0,c1, not c0.c1.
bench_context=system_u:system_r:bench_t:s1:c0,c1

# mls_allows SCON TCON CLASS PERM: whether the loaded policy allows PERM,
# asked through selinuxfs's compute_av (/sys/fs/selinux/access), which
# logs nothing: the answer's first word is the allowed vector, in hex.
mls_allows() {
	_cls=$(cat "$se/class/$3/index") && _bit=$(cat "$se/class/$3/perms/$4") || return 2
	exec 3<>"$se/access" || return 2
	printf '%s %s %s' "$1" "$2" "$_cls" >&3
	read -r _allowed _ <&3
	exec 3>&-
	[ $(((0x$_allowed >> (_bit - 1)) & 1)) = 1 ]
}

# expect yes|no SCON TCON CLASS PERM
expect() {
	_want=$1
	shift
	if mls_allows "$@"; then _got=yes; else _got=no; fi
	echo "BENCH-SETUP selinux: $1 -> $2 $3 $4: $_got"
	[ "$_got" = "$_want" ] || { echo "BENCH-FAIL selinux: policy gives '$_got' for $* (expected $_want)"; return 1; }
}

setup_load() {
	grep -qw selinux /sys/kernel/security/lsm ||
		{ echo "BENCH-FAIL selinux: not in the LSM list ($(cat /sys/kernel/security/lsm))"; return 1; }
	mount -t selinuxfs selinuxfs $se || return 1
	# selinuxfs takes a policy only in one write at offset 0: one block.
	dd if=/bench/selinux/policy of=$se/load bs="$(wc -c </bench/selinux/policy)" count=1 \
		2>/dev/null || { echo "BENCH-FAIL selinux: loading the policy failed"; return 1; }
	echo 1 >$se/enforce || return 1
	# The MLS constraints are in force (Bell-LaPadula on files), checked
	# on bench_t's level against files of its own level, lower, higher
	# and of other categories (bench_tmp_t: what TE lets bench_t read
	# and write, so that only MLS can say no).
	tmp=system_u:object_r:bench_tmp_t
	expect yes $bench_context $tmp:s1:c0.c1 file write || return 1
	expect yes $bench_context $tmp:s0 file read || return 1
	expect no $bench_context $tmp:s0 file write || return 1
	expect no $bench_context $tmp:s2:c0.c1 file read || return 1
	expect no $bench_context $tmp:s1:c2 file read || return 1
	expect no $bench_context system_u:object_r:root_t:s0 file write || return 1
	# /init's console is a node of the initramfs (root_t, s0): bench_t
	# may not write down to it. The same device in /dev (devtmpfs, a
	# multilevel object) takes the workloads' output.
	exec </dev/console >/dev/console 2>&1
	# The domain run.sh's next exec enters.
	printf '%s' $bench_context >/proc/self/attr/exec ||
		{ echo "BENCH-FAIL selinux: setting the exec context failed"; return 1; }
}

setup_check() {
	[ "$(cat $se/enforce)" = 1 ] || { echo "BENCH-FAIL selinux: not enforcing"; return 1; }
	[ "$(cat $se/mls)" = 1 ] || { echo "BENCH-FAIL selinux: the policy is not MLS"; return 1; }
	_ctx=$(cat /proc/self/attr/current)
	[ "$_ctx" = $bench_context ] ||
		{ echo "BENCH-FAIL selinux: running in '$_ctx', not $bench_context"; return 1; }
	# The audit records of denials reach the kernel log through kauditd:
	# give it a moment to run.
	sleep 0.1
	if dmesg | grep -q 'avc:  denied'; then
		dmesg | grep 'avc:  denied' | head -n 20 | sed 's/^/BENCH-DMESG /'
		echo "BENCH-FAIL selinux: access denied during the run (avc:  denied in the kernel log)"
		return 1
	fi
	echo "BENCH-SETUP selinux: policy loaded ($(ls $se/class | wc -l) classes), MLS, enforcing;" \
		"in $_ctx; no denials"
}

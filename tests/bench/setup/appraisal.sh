# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2154 # appraisal_* are set by the including script
# What the setups of the bench variants "ima" (tests/bench/setup/ima.sh)
# and "integrity" (integrity.sh) share; not a setup of its own. Both load
# the same measure + appraise policy (`/bench/appraise policy`: FOWNER's
# files, read or executed) into the module under test, and check that it
# measures and appraises, enforcing, the files of /tmp/appraise, which
# run.sh made (`/bench/appraise prepare`) before the setup, with their
# security.ima.
#
# The including script sets appraisal_name (for messages), appraisal_dir
# (the module's securityfs directory: policy, ascii_runtime_measurements)
# and defines appraisal_active (whether the module runs in this boot).

appraisal_files=/tmp/appraise
appraisal_list=$appraisal_dir/ascii_runtime_measurements
# Where the first check leaves its mark, for the last one.
appraisal_checked=/tmp/appraisal-checked

appraisal_fail() {
	echo "BENCH-FAIL $appraisal_name: $*"
	return 1
}

# entries FILE: how many list entries are FILE with its digest (reading
# FILE to hash it is one more measured and appraised access).
entries() {
	_digest=$(sha256sum "$appraisal_files/$1" | cut -d' ' -f1) || return 1
	grep -c " sha256:$_digest $appraisal_files/$1\$" "$appraisal_list"
}

# measured FILE: FILE is in the list with its digest.
measured() {
	_n=$(entries "$1")
	[ "${_n:-0}" -ge 1 ] || appraisal_fail "$appraisal_files/$1 is not in $appraisal_list"
}

setup_load() {
	appraisal_active || appraisal_fail "not running ($(cat /sys/kernel/security/lsm))" || return 1
	[ -r "$appraisal_files/read" ] || appraisal_fail "no $appraisal_files (run.sh's appraise prepare)" ||
		return 1
	# One rule per line: IMA takes a line per write (cat writes on), the
	# submodule the whole policy in one write (cat's one block).
	/bench/appraise policy >/tmp/appraisal.policy || return 1
	cat /tmp/appraisal.policy >"$appraisal_dir/policy" ||
		appraisal_fail "loading the policy failed" || return 1
}

setup_check() {
	# The policy in force: its four rules read back (each module in its
	# own spelling).
	_rules=$(grep -c 'fowner=4242' "$appraisal_dir/policy")
	[ "$_rules" = 4 ] || appraisal_fail "$_rules rules in force, not 4: $(cat "$appraisal_dir/policy")" ||
		return 1
	if [ ! -e $appraisal_checked ]; then
		# Before the workloads: appraisal enforces, on open and on exec.
		cat $appraisal_files/read >/dev/null || appraisal_fail "reading a good file failed" || return 1
		$appraisal_files/exec || appraisal_fail "executing a good file failed" || return 1
		if cat $appraisal_files/bad-read >/dev/null 2>&1; then
			appraisal_fail "a file whose security.ima does not match was read"
			return 1
		fi
		if $appraisal_files/bad-exec 2>/dev/null; then
			appraisal_fail "a file whose security.ima does not match was executed"
			return 1
		fi
		measured read && measured exec || return 1
		: >$appraisal_checked
		echo "BENCH-SETUP $appraisal_name: policy in force; good files read and executed and" \
			"measured, bad ones refused ($(wc -l <"$appraisal_list") entries)"
		return 0
	fi
	# After the workloads: every file was measured (once: the bench
	# rewrites the same bytes, and both lists keep a measurement once), and
	# a rewritten file is appraised again: with one byte changed, its
	# security.ima no longer holds.
	measured read && measured exec && measured m1 && measured m4 || return 1
	printf 'x' | dd of=$appraisal_files/m1 bs=1 count=1 conv=notrunc 2>/dev/null || return 1
	if cat $appraisal_files/m1 >/dev/null 2>&1; then
		appraisal_fail "m1, changed after its last measurement, was read: not appraised again"
		return 1
	fi
	echo "BENCH-SETUP $appraisal_name: all files measured; a changed file was appraised again" \
		"and refused ($(wc -l <"$appraisal_list") entries)"
}

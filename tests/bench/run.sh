#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark run inside the guest (stacker_guest=bench). Prints
# "BENCH name value unit" lines, then "BENCH-DONE"; any failed workload
# prints "BENCH-FAIL ..." and the run stops.
#
# Usage: run.sh quick|full|hooks   (hooks: the per-hook figures only)

mode=${1:-full}
q=
[ "$mode" = quick ] && q=-q
# A failure, with the denials the kernel logged (SELinux's and mlte's),
# which are the usual reason a workload fails under a policy.
fail() {
	dmesg | grep -E 'avc: +denied' | head -n 20 | sed 's/^/BENCH-DMESG /'
	echo "BENCH-FAIL $*"
	exit 1
}

# The variant's guest setup (bench.sh's VARIANTS, 5th field), named on the
# kernel command line as stacker_bench_setup=NAME. /bench/setup/NAME.sh
# (tests/bench/setup/) is sourced, so it can change this shell itself, and
# must define two functions:
#   setup_load   runs once, first of all, in /init's security context:
#                loads the variant's policy. It may set the context the
#                workloads run in: run.sh re-executes itself right after,
#                so an exec-time change (SELinux's exec context, a domain
#                transition) applies to everything measured.
#   setup_check  runs after the re-exec, before anything is measured, and
#                again after the last workload: the policy is in force and
#                did not get in the way (e.g. no denial in the kernel log).
# Either prints its own "BENCH-FAIL why" line and returns non-zero on
# failure; the run then stops. Lines of its own begin with "BENCH-SETUP ".
# A setup whose policy does not let the workloads of /bench/appraise run
# (tests/bench/appraise.c: root gives files to another owner with
# security.ima and executes them from /tmp) sets setup_skips_appraise=1,
# and they are skipped.
setup=
for arg in $(cat /proc/cmdline); do
	case "$arg" in stacker_bench_setup=*) setup=${arg#stacker_bench_setup=} ;; esac
done
if [ -n "$setup" ]; then
	[ -r "/bench/setup/$setup.sh" ] || fail "setup: no /bench/setup/$setup.sh"
	# shellcheck source=/dev/null
	. "/bench/setup/$setup.sh"
fi
appraise=1
[ "$mode" = hooks ] || [ -n "${setup_skips_appraise:-}" ] && appraise=
# The files the appraise workloads measure, made once, as root, before any
# setup loads a policy: the same files and xattrs in every variant.
if [ -n "$appraise" ] && [ -z "${STACKER_BENCH_SETUP_DONE:-}" ]; then
	/bench/appraise prepare || fail "appraise prepare"
fi
if [ -n "$setup" ]; then
	if [ -z "${STACKER_BENCH_SETUP_DONE:-}" ]; then
		setup_load || fail "setup $setup: setup_load failed"
		export STACKER_BENCH_SETUP_DONE=1
		exec /bench/run.sh "$mode"
	fi
	setup_check || fail "setup $setup: setup_check failed"
fi
# The end of a run that got through: the setup's last check, then the
# marker bench.sh waits for.
done_ok() {
	if [ -n "$setup" ]; then
		setup_check || fail "setup $setup: setup_check failed after the workloads"
	fi
	echo "BENCH-DONE"
	exit 0
}

# A profile boot (scripts/profile.sh): one workload of /bench/profile,
# stacker_profile=WORKLOAD:ROUNDS, under the variant's setup, and nothing
# else.
profile=
for arg in $(cat /proc/cmdline); do
	case "$arg" in stacker_profile=*) profile=${arg#stacker_profile=} ;; esac
done
if [ -n "$profile" ]; then
	/bench/profile "${profile%%:*}" "${profile#*:}" || fail "profile $profile"
	done_ok
fi

ifconfig lo 127.0.0.1 up || fail "loopback: ifconfig lo up"

# The same capstack policy wherever capstack runs (stacked or alone).
for f in /sys/kernel/security/stacker/capstack/policy /sys/kernel/security/capstack/policy; do
	[ -e "$f" ] && printf 'deny CAP_SYS_MODULE all\ndeny CAP_NET_RAW uid 1000-60000\n' >"$f"
done
echo "BENCH-LSM $(cat /sys/kernel/security/lsm)"
[ -r /sys/kernel/security/stacker/chain ] &&
	echo "BENCH-CHAIN $(tr '\n' ' ' </sys/kernel/security/stacker/chain)"

# The guest clock is the TSC, which icount drives (one tick per
# instruction). The kernel starts on "tsc-early" and switches to "tsc" one
# second (of guest time) after boot, from a work item; wait for that, so
# that the switch does not land inside some workload.
cs=/sys/devices/system/clocksource/clocksource0
i=0
while [ "$(cat $cs/current_clocksource)" != tsc ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "BENCH-CLOCKSOURCE $(cat $cs/current_clocksource) (available: $(cat $cs/available_clocksource))"
dmesg | grep -E 'tsc: |clocksource: Switched' | sed 's/^/BENCH-DMESG /'

# Per-hook cost, measured in the kernel (stacker/kernel/hook_bench.c): every
# bench kernel has the file, whatever lsm= says. N calls per hook; each
# "HOOKBENCH hook min median" line becomes "BENCH hook_<hook> <min> insn/call"
# (the median stays in the console log).
hb=/sys/kernel/security/stacker_hook_bench
[ -e $hb ] || fail "hook bench: $hb missing (CONFIG_SECURITY_STACKER_HOOK_BENCH)"
if [ "$mode" = quick ]; then n=1000; else n=100000; fi
echo $n >$hb || fail "hook bench: writing $n to $hb failed (see the kernel log)"
out=$(cat $hb) || fail "hook bench: reading $hb"
echo "$out" | sed 's/^/BENCH-HOOK /'
for hook in capable file_open inode_permission cred_prepare; do
	v=$(echo "$out" | awk -v h=$hook '$1 == "HOOKBENCH" && $2 == h { print $3 }')
	[ -n "$v" ] || fail "hook bench: no figure for $hook"
	echo "BENCH hook_$hook $v insn/call"
done
if [ "$mode" = hooks ]; then
	done_ok
fi

# Micro-operations.
/bench/bench $q || fail "micro-operations"

# Opens and execs of measured, appraised files, and the first measurement
# per MiB (IMA, the integrity submodule; without a policy, the same files).
if [ -n "$appraise" ]; then
	/bench/appraise $q || fail "appraise"
fi

# Loopback HTTP: busybox httpd and a load generator.
mkdir -p /tmp/www && head -c 4096 /dev/zero >/tmp/www/index.html
httpd -p 127.0.0.1:8080 -h /tmp/www || fail "httpd"
if [ "$mode" = quick ]; then n=10; else n=100; fi
/bench/httpload 8080 /index.html $n || fail "http_load"
killall httpd

# Archive and compress, as in the LTT measurements.
if [ "$mode" = quick ]; then src=/bench/run.sh; else src=/bin/busybox; fi
/bench/timeit archive_compress sh -c "tar -cf - $src | gzip -1 >/tmp/a.tgz" ||
	fail "archive_compress"

# dbench (file server load) and tbench (its network half), if installed.
if [ -x /bench/dbench ]; then
	# dbench reports nothing for a 1-second run.
	t=2
	mkdir -p /tmp/db
	out=$(/bench/dbench -t $t -c /bench/client.txt -D /tmp/db 2 2>&1) || fail "dbench: $out"
	mb=$(echo "$out" | sed -n 's/^ *Throughput \([0-9.]*\) MB\/sec.*/\1/p' | tail -n1)
	[ -n "$mb" ] || fail "dbench: no throughput in its output"
	echo "BENCH dbench $mb MB/s"
	/bench/tbench_srv >/dev/null 2>&1 &
	srv=$!
	sleep 1
	out=$(/bench/tbench -t $t -c /bench/client.txt 2 127.0.0.1 2>&1) || fail "tbench: $out"
	mb=$(echo "$out" | sed -n 's/^ *Throughput \([0-9.]*\) MB\/sec.*/\1/p' | tail -n1)
	[ -n "$mb" ] || fail "tbench: no throughput in its output"
	echo "BENCH tbench $mb MB/s"
	kill $srv
fi
done_ok

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The boot tests of make test: every boot of the test kernel, as data.

Each boot is one line of BOOTS below: a name, the kernel command line, the
guest programs and, optionally, more boottest.py arguments (a list; no
shell). Each runs tests/qemu/boottest.py once, with the KUnit suites that
must report in every boot; a boot whose kernel hung before it ran /init
(no guest output at all) is run once more (QEMU's multi-threaded TCG has
been seen to hang the 4-vCPU boot in early ACPI and RCU setup, 2 in about
15 boots, before any test ran), and a second hang fails it.

Usage:
  boots.py --list                       the boots, one a line
  boots.py --kernel IMG --initrd CPIO --out DIR [--only NAME]... [--debug]
           [--timeout S] [--kunit SUITE]...

It prints each boot's results but its passes, then
"boot: N passed, N failed, N skipped", and exits non-zero when a boot
failed (or an --only name is not a boot). DIR gets boot-NAME.log (the
console), boot-NAME.log.guest and boot-NAME.result.
"""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# The kernel's LSM selftests (tools/testing/selftests/lsm, patched by
# linux/patches/0006, "selftests/lsm: know stacker's LSM ids ..."): in the
# boots with a different LSM list, and with a submodule that answers
# lsm_get_self_attr(2), after the program that gives it something to
# answer (mlte_test loads mlte's policy).
LSM_SELFTESTS = ["lsm_get_self_attr_test", "lsm_set_self_attr_test", "lsm_list_modules_test"]

# The init-failure boots: what the kernel must (and may) print.
INIT_FAILURE = ["--allow-kernel-message", r"WARNING: .*security/lsm_init\.c",
                "--expect-kernel-message", "stacker failed to initialize"]
# One submodule of the chain fails: it is left out, stacker starts.
MODULE_FAILURE = ["--expect-kernel-message", "left out of the chain, which runs without it"]
DIRECT_FAILURE = ["--allow-kernel-message", r"WARNING: .*security/lsm_init\.c",
                  "--expect-kernel-message", "capstack failed to initialize"]
# The integrity boots: the fixture image that mkinitramfs.sh made (with
# the keys it put in the initramfs), as the guest's /dev/vda.
INTEGRITY = ["--disk", "{out}/integrity/integrity.img"]
# The storm's and the equivalence boot need up to 900 s, or the run's own
# timeout if longer.
LONG = ["--timeout", "{long_timeout}"]

# (name, kernel command line, guest programs, more boottest.py arguments).
# The fault-injection boot (tests/guest/fault_injection_test.c): the three
# real submodules and denyname stacked, with the integrity fixtures, each
# operation run with its 1st, 2nd, ... allocation failed (fail-nth) until
# one needs no more. The coexistence boots (tests/guest/coexist_test.c):
# SELinux (its policy loaded, enforcing) and AppArmor (a profile loaded,
# enforcing) before and after stacker, each one denying and each one's
# attributes reachable.
BOOTS = [
    ("default", "", ["denyname_test", "chain_test", "securityfs_test"] + LSM_SELFTESTS, []),
    ("two", "stacker.chain=xattrlock,xattrlock_b", ["stack_test", "chain_test"], []),
    ("two-reversed", "stacker.chain=xattrlock_b,xattrlock", ["stack_test", "chain_test"], []),
    ("three", "stacker.chain=xattrlock,xattrlock_b,xattrlock_c", ["stack_test", "chain_test"], []),
    ("three-reversed", "stacker.chain=xattrlock_c,xattrlock_b,xattrlock",
     ["stack_test", "chain_test"], []),
    ("default-loop", "stacker.dispatch=loop", ["denyname_test", "chain_test"], []),
    ("default-by-name", "stacker.chain=denyname,capstack", ["denyname_test", "chain_test"], []),
    ("single-loop", "stacker.chain=xattrlock stacker.dispatch=loop", ["stack_test", "chain_test"], []),
    ("single", "stacker.chain=xattrlock", ["stack_test", "chain_test"], []),
    ("empty", "stacker.chain=", ["chain_test"] + LSM_SELFTESTS, []),
    ("probe", "stacker.chain=probe", ["probe_test", "chain_test"] + LSM_SELFTESTS, []),
    ("probe-stacked", "stacker.chain=probe_b,probe,probe_c",
     ["probe_test", "chain_test"] + LSM_SELFTESTS, []),
    ("probe-own-lsm", "lsm=probe,probe_b,probe_c", ["probe_test"] + LSM_SELFTESTS, []),
    ("probe-with-own-lsm", "lsm=stacker,probe_b stacker.chain=probe",
     ["probe_test", "chain_test"] + LSM_SELFTESTS, []),
    ("repeated-names", "stacker.chain=xattrlock_b,xattrlock_b,xattrlock",
     ["stack_test", "chain_test"], []),
    ("unknown-name", "stacker.chain=xattrlock,capstak", ["denyname_test", "chain_test"], []),
    ("mlte", "stacker.chain=mlte", ["mlte_test", "labels_test", "chain_test"] + LSM_SELFTESTS,
     INTEGRITY),
    # Two label-bearing submodules (tests/guest/labels_test.c): audit
    # records name each (subj_mlte=, subj_probe=).
    ("mlte-probe", "stacker.chain=mlte,probe", ["labels_test", "chain_test"], []),
    ("mlte-capstack", "stacker.chain=mlte,capstack", ["mlte_test", "chain_test"], []),
    ("capstack-mlte", "stacker.chain=capstack,mlte stacker.dispatch=loop",
     ["mlte_test", "chain_test"] + LSM_SELFTESTS, []),
    ("integrity", "stacker.chain=integrity", ["integrity_test", "chain_test"],
     INTEGRITY + ["--smp", "2"]),
    ("integrity-mlte-capstack", "stacker.chain=integrity,mlte,capstack",
     ["integrity_test", "mlte_test", "capstack_test", "chain_test"] + LSM_SELFTESTS, INTEGRITY),
    ("capstack", "stacker.chain=capstack", ["capstack_test", "chain_test", "securityfs_test"], []),
    ("capstack-stacked", "stacker.chain=xattrlock,capstack",
     ["capstack_test", "chain_test", "securityfs_test"], []),
    ("capstack-own-lsm", "lsm=capstack", ["capstack_test", "securityfs_test"] + LSM_SELFTESTS, []),
    ("init-failure-core", "stacker.chain=capstack stacker.fail_init=core",
     ["init_failure_test"], INIT_FAILURE),
    ("init-failure-module", "stacker.chain=denyname,capstack stacker.fail_init=capstack",
     ["init_failure_test"], MODULE_FAILURE),
    ("init-failure-panic",
     "stacker.chain=denyname,capstack stacker.fail_init=capstack stacker.on_failure=panic",
     [], ["--expect-panic", "stacker: did not start as configured"]),
    ("own-lsm-conflict", "lsm=capstack,stacker stacker.chain=denyname,capstack",
     ["init_failure_test"], MODULE_FAILURE),
    ("own-lsm-conflict-stacker-first", "lsm=stacker,capstack stacker.chain=denyname,capstack",
     ["init_failure_test"], DIRECT_FAILURE),
    ("init-failure-own-lsm", "lsm=capstack stacker.fail_init=capstack",
     ["init_failure_test"], DIRECT_FAILURE),
    # mlte against SELinux on the same kernel: random policies, both
    # permissive, every decision compared (mlte_equivalence_test.c).
    # Six policies' questions, then the scale policy loaded into both,
    # take 450 to 800 s under TCG (SELinux's permissive AVC records are
    # most of the console): the long timeout.
    ("selinux-equivalence", "lsm=selinux,stacker stacker.chain=mlte enforcing=0",
     ["mlte_equivalence_test"], LONG),
    ("selinux-stacker", "lsm=selinux,stacker stacker.chain=denyname,mlte",
     ["labels_test", "coexist_test"] + LSM_SELFTESTS, []),
    ("stacker-selinux", "lsm=stacker,selinux stacker.chain=denyname,mlte",
     ["labels_test", "coexist_test"] + LSM_SELFTESTS, []),
    ("apparmor-stacker", "lsm=apparmor,stacker stacker.chain=mlte,denyname,probe",
     ["labels_test", "coexist_test"] + LSM_SELFTESTS, []),
    ("stacker-apparmor", "lsm=stacker,apparmor stacker.chain=mlte,denyname,probe",
     ["labels_test", "coexist_test"] + LSM_SELFTESTS, []),
    ("smp-stress", "stacker.chain=integrity,mlte,capstack,denyname", ["smp_stress"],
     ["--smp", "4"] + LONG),
    ("fault-injection", "stacker.chain=integrity,mlte,capstack,denyname",
     ["fault_injection_test"], INTEGRITY),
]

SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$")


def log(msg):
    print(f"[stacker] {msg}", file=sys.stderr, flush=True)


def summary(path):
    """(passed, failed, skipped) from the last summary line of a result, or None."""
    found = None
    with open(path, errors="replace") as f:
        for line in f:
            m = SUMMARY.match(line.rstrip("\n"))
            if m:
                found = tuple(int(x) for x in m.groups())
    return found


def run_boot(args, name, append, extra):
    """One boot; its exit status. Results in OUT/boot-NAME.result."""
    cmd = [sys.executable, "-B", os.path.join(HERE, "boottest.py"),
           "--kernel", args.kernel, "--initrd", args.initrd,
           "--log", os.path.join(args.out, f"boot-{name}.log"),
           "--timeout", str(args.timeout), "--append", append]
    for suite in args.kunit:
        cmd += ["--kunit", suite]
    cmd += extra
    with open(os.path.join(args.out, f"boot-{name}.result"), "w") as out:
        return subprocess.run(cmd, stdout=out).returncode


def hung_before_userspace(args, name):
    result = os.path.join(args.out, f"boot-{name}.result")
    console = os.path.join(args.out, f"boot-{name}.log")
    with open(result, errors="replace") as f:
        timed_out = any(line.startswith("FAIL: qemu:timeout") for line in f)
    try:
        with open(console, errors="replace") as f:
            reached = "Run /init as init process" in f.read()
    except OSError:
        reached = False
    return timed_out and not reached


def expand(words, values):
    """The words with each known placeholder ({out}, {long_timeout})
    replaced; nothing else is touched (a regex may hold braces)."""
    out = []
    for w in words:
        for key, value in values.items():
            w = w.replace("{" + key + "}", str(value))
        out.append(w)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", action="store_true", help="list the boots and exit")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="run only this boot; repeatable")
    ap.add_argument("--kernel")
    ap.add_argument("--initrd")
    ap.add_argument("--out")
    ap.add_argument("--kunit", action="append", default=[], metavar="SUITE",
                    help="a KUnit suite every boot must report; repeatable")
    ap.add_argument("--timeout", type=int, default=300, help="per boot (default 300 s)")
    ap.add_argument("--debug", action="store_true",
                    help="the debug kernel: kmemleak_check last in each boot")
    args = ap.parse_args()
    if args.list:
        for name, append, programs, extra in BOOTS:
            print(f"{name}\t{append or '(no stacker parameters)'}\t{' '.join(programs)}"
                  + (f"\t{' '.join(extra)}" if extra else ""))
        return 0
    if not (args.kernel and args.initrd and args.out):
        ap.error("--kernel, --initrd and --out are needed to run boots")
    names = [b[0] for b in BOOTS]
    unknown = [n for n in args.only if n not in names]
    if unknown:
        log(f"no such boot: {', '.join(unknown)} (boots.py --list)")
        return 2
    values = {"out": args.out, "long_timeout": max(args.timeout, 1500)}
    passed = failed_count = skipped = 0
    failed, retried = [], []
    for name, append, programs, extra in BOOTS:
        if args.only and name not in args.only:
            continue
        words = []
        for p in programs:
            words += ["--program", p]
        if args.debug:
            words += ["--program", "kmemleak_check"]
        words += expand(extra, values)
        log(f"boot '{name}': {append or '(no stacker parameters)'}"
            + (f" [{' '.join(expand(extra, values))}]" if extra else ""))
        start = time.monotonic()
        rc = run_boot(args, name, append, words)
        if rc != 0 and hung_before_userspace(args, name):
            hung = os.path.join(args.out, f"boot-{name}-hung.log")
            os.replace(os.path.join(args.out, f"boot-{name}.log"), hung)
            log(f"boot '{name}': the kernel hung before userspace (log: {hung}); "
                "running it once more")
            retried.append(name)
            rc = run_boot(args, name, append, words)
        result = os.path.join(args.out, f"boot-{name}.result")
        with open(result, errors="replace") as f:
            for line in f:
                if not line.startswith("PASS"):
                    sys.stdout.write(line)
        sys.stdout.flush()
        counts = summary(result)
        if counts is None:
            # No summary: boottest.py itself broke. A failure of this
            # boot, not the end of the run.
            log(f"boot '{name}': no summary line in {result}; counted as a failure")
            counts = (0, 0, 0)
            rc = rc or 1
        bp, bf, bs = counts
        if rc != 0:
            failed.append(name)
            # A failed boot counts at least one failure.
            bf = max(bf, 1)
        passed, failed_count, skipped = passed + bp, failed_count + bf, skipped + bs
        log(f"boot '{name}': {bp} passed, {bf} failed, {bs} skipped in "
            f"{time.monotonic() - start:.0f} s")
    print(f"boot: {passed} passed, {failed_count} failed, {skipped} skipped", flush=True)
    if retried:
        log(f"boots retried after a hang before userspace: {' '.join(retried)}")
    if failed:
        log(f"boot tests FAILED: {' '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

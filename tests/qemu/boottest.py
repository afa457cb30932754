#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a stacker kernel in QEMU (TCG) and check what it reports.

The harness reads the serial console (kernel messages, KUnit) and the second
serial port (the in-guest programs' output, which the guest keeps apart so
that no kernel message can split a result line), and fails the run when:
  - an expected KUnit suite is missing or reports "not ok";
  - an in-guest test program did not run, printed no plan, printed fewer
    results than its plan, reported "not ok", bailed out, exited non-zero,
    or (kselftest_harness.h's TAP) printed no "# Totals:" line or one that
    does not add up to its results;
  - the kernel printed an error (see KERNEL_ERROR: "BUG:", "WARNING:",
    "Oops", "Kernel panic", lockdep, RCU, list-debug, UBSAN, KASAN and
    SLUB_DEBUG reports, sanitizer report banners) that no
    --allow-kernel-message matches;
  - no console line matches an --expect-kernel-message;
  - the guest did not reach its end marker before the timeout.
A result with a "# SKIP" directive ("ok N name # SKIP why", or "not ok")
is a skip: neither a pass nor a failure. The guest programs
(tests/guest/*.c) and the kernel's LSM selftests are written on
kselftest_harness.h and print TAP version 13: "1..N", then for each test
"#  RUN NAME", its diagnostics, "ok N NAME" or "not ok N NAME" (with
"# SKIP why" for a skip), and at the end "# Totals: pass:P fail:F xfail:X
xpass:Y skip:S error:E". A "not ok" line gives no reason: its reason is
then what the harness logged since the previous result, the failed
assertions and TH_LOG() messages ("# file.c:LINE:test:Expected ...", up
to MAX_REASON_LINES of them, joined by " | "), or else the first
diagnostic that is not one of the harness's own RUN/OK/FAIL lines ("#
test: Test terminated by timeout").
It prints one PASS/FAIL/SKIP line per result and ends with
"N passed, N failed, N skipped"; it exits non-zero on any failure or when
nothing passed.
"""

import argparse
import os
import re
import subprocess
import sys
import time

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"

RESULT = re.compile(r"^(\s*)(not ok|ok) (\d+) (\S+)(.*)$")
SKIP_DIRECTIVE = re.compile(r"#\s*SKIP\b\s*(.*)$", re.IGNORECASE)
SUBTEST = re.compile(r"^(\s*)# Subtest: (\S+)")
PLAN = re.compile(r"^\s*1\.\.(\d+)\s*$")
DIAGNOSTIC = re.compile(r"^\s*#\s?(.*)$")
# kselftest_harness.h's own lines around each test, not its reason.
KSELFTEST_MARKER = re.compile(r"^(\s*(RUN|OK|FAIL|SKIP|XFAIL|XPASS)\s|Starting \d+ tests)")
# What its assertions and TH_LOG() print: "file.c:LINE:test:message".
KSELFTEST_LOG = re.compile(r"^[^\s:]+:\d+:[^\s:]+:")
MAX_REASON_LINES = 4
# Its last line: the counts by outcome.
KSELFTEST_TOTALS = re.compile(
    r"^# Totals: pass:(\d+) fail:(\d+) xfail:(\d+) xpass:(\d+) skip:(\d+) error:(\d+)$")
BAIL_OUT = re.compile(r"^Bail out!\s*(.*)$")
# What a kernel (debug options included) prints when something went wrong.
KERNEL_ERROR = re.compile("|".join([
    r"\bBUG:", r"\bWARNING:", r"\bOops\b", r"Kernel panic",
    r"INFO: possible", r"suspicious RCU usage",
    r"list_add corruption", r"list_del corruption",
    r"inconsistent lock state", r"possible circular locking",
    r"scheduling while atomic",
    r"sleeping function called from invalid context",
    r"\bUBSAN:",
    # KASAN: "BUG: KASAN: slab-out-of-bounds in f+0x1/0x2", and, for a
    # wild access, "KASAN: null-ptr-deref in range [...]" under a general
    # protection fault.
    r"\bKASAN:",
    # SLUB_DEBUG: "BUG kmalloc-64 (Not tainted): Redzone overwritten".
    r"\bBUG [\w.-]+ \((Not tainted|Tainted: [^)]*)\): ",
    # The banner around a KASAN, KFENCE or KCSAN report (66 "=") or a
    # SLUB_DEBUG one (77): the report fails the boot even when its title
    # line was lost or garbled on the console.
    r"^(\[[ \d.]+\] )?={66,}$",
]))
RUN = re.compile(r"^stacker-guest: run (\S+)$")
EXIT = re.compile(r"^stacker-guest: exit (\d+) (\S+)$")
DONE = "stacker-guest: done"
APPEND_PREFIX = "console=ttyS0 panic=-1 "


def read_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [line.replace("\r", "").rstrip("\n") for line in f]
    except OSError:
        return []


# The guest CPU: QEMU's "max" without LA57 (5-level paging). With LA57,
# identify_cpu() zeroes boot_cpu_data's feature bits, LA57's among them,
# for a moment while interrupts are already on (init/main.c enables them
# before arch_cpu_finalize_init()), and until the alternatives are patched
# pgtable_l5_enabled() (cpu_feature_enabled(X86_FEATURE_LA57)) reads those
# bits: an interrupt in that window walks or makes page tables as 4-level
# ones. Seen as KASAN's "wild-memory-access in do_raw_spin_lock" under
# identify_cpu on the debug kernel (2 boots of 28); the test kernel's
# 4-CPU boot once died at 10 s on an int3 Oops in interrupt, which fits
# the same window (its log was not kept; it did not come back in 7 boots).
# Without LA57 the bit never changes. scripts/lib.sh's QEMU_CPU is the same for
# `make run` and `make bench`.
GUEST_CPU = "max,la57=off"


def qemu_command(kernel, initrd, append, guest_path, smp=1, memory="512M", disks=(),
                 cpu=GUEST_CPU):
    """The QEMU command line. Each of `disks` is a raw image attached as a
    virtio disk (/dev/vda, /dev/vdb, ... in order) with snapshot=on: the
    guest may write to it, the image itself never changes."""
    cmd = [
        "qemu-system-x86_64", "-accel", "tcg", "-cpu", cpu, "-m", memory,
        "-smp", str(smp), "-nographic", "-no-reboot", "-kernel", kernel,
        "-initrd", initrd,
        "-serial", "mon:stdio", "-serial", "file:" + guest_path,
        "-append", APPEND_PREFIX + append,
    ]
    for disk in disks:
        cmd += ["-drive", f"file={disk},format=raw,if=virtio,snapshot=on"]
    return cmd


def run_qemu(cmd, timeout, log_path, guest_path, echo):
    """Returns (console lines, guest-program lines, timed out, seconds)."""
    if os.path.exists(guest_path):
        os.remove(guest_path)
    lines = []
    start = time.monotonic()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        # The console is read while QEMU runs: a full pipe (64 KiB)
        # stalls the guest's serial port, and with it every printk (the
        # equivalence boot's audit records took it from 120 s to 700 s).
        timed_out = False
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            proc.kill()
            out, _ = proc.communicate()
        data = out.decode("utf-8", "replace")
        log.write(data)
    for raw in data.splitlines():
        line = raw.replace("\r", "")
        lines.append(line)
        if echo:
            print("  | " + line)
    guest = read_lines(guest_path)
    if echo:
        for line in guest:
            print("  g " + line)
    return lines, guest, timed_out, time.monotonic() - start


def skip_reason(rest):
    """The reason of a "# SKIP" directive in the text after a result's
    name, or None when the result is not a skip."""
    m = SKIP_DIRECTIVE.search(rest)
    if not m:
        return None
    return m.group(1).strip() or "no reason given"


def kernel_errors(lines, allow=()):
    """Returns (errors, allowed): the lines that look like a kernel error,
    split by whether an allow regex matches them."""
    allow = [re.compile(a) for a in allow]
    errors, allowed = [], []
    for line in lines:
        if not KERNEL_ERROR.search(line):
            continue
        if any(a.search(line) for a in allow):
            allowed.append(line.strip())
        else:
            errors.append(line.strip())
    return errors, allowed


def first_report(lines, allow=(), length=30):
    """The console from the first kernel error that is not allowed, at
    most `length` lines: the Oops or BUG with its RIP and call trace, so
    that a failure seen only in CI (where the console log is not kept) can
    be read from what the run printed."""
    allow = [re.compile(a) for a in allow]
    for i, line in enumerate(lines):
        if KERNEL_ERROR.search(line) and not any(a.search(line) for a in allow):
            return lines[i:i + length]
    return []


def check(lines, guest, kunit_suites, programs, allow=(), expect=()):
    """Returns a list of (outcome, name, detail), outcome PASS, FAIL or SKIP.

    lines: the console; guest: the guest programs' port; allow: regexes of
    kernel error lines that are not failures; expect: regexes each of which
    some console line must match."""
    results = []
    first_guest = next((i for i, l in enumerate(lines) if l.startswith("stacker-guest:")),
                       len(lines))

    errors, _ = kernel_errors(lines + guest, allow)
    for line in errors:
        results.append((FAIL, "kernel:log-clean", line))

    for regex in expect:
        r = re.compile(regex)
        if any(r.search(line) for line in lines):
            results.append((PASS, "kernel:expected-message", regex))
        else:
            results.append((FAIL, "kernel:expected-message",
                            f"no console line matches '{regex}'"))

    # KUnit: top-level suite lines are "ok N suite" without indentation;
    # test cases are indented, after an indented "# Subtest: suite". Only
    # the part of the log before /init runs.
    kunit_status = {}
    subtests = {}  # indentation -> the name of the subtest opened there
    for line in lines[:first_guest]:
        m = SUBTEST.match(line)
        if m:
            depth = len(m.group(1))
            subtests = {i: n for i, n in subtests.items() if i < depth}
            subtests[depth] = m.group(2)
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent, status, _, name, rest = m.groups()
        reason = skip_reason(rest)
        if indent == "":
            if name in kunit_suites:
                if reason is not None:
                    kunit_status[name] = (SKIP, reason)
                elif status == "not ok":
                    kunit_status[name] = (FAIL, line.strip())
                else:
                    kunit_status[name] = (PASS, "")
            elif status == "not ok" and reason is None:
                results.append((FAIL, "kunit:" + name, line.strip()))
            continue
        # A test case (or a parameter of one), printed at the indentation
        # of the "# Subtest:" line of what it belongs to.
        path = [n for i, n in sorted(subtests.items()) if i <= len(indent)]
        full = "kunit:" + ".".join(path + [name])
        if reason is not None:
            results.append((SKIP, full, reason))
        elif status == "not ok":
            results.append((FAIL, full, line.strip()))
    for suite in kunit_suites:
        outcome, detail = kunit_status.get(suite, (FAIL, "suite did not report"))
        results.append((outcome, "kunit:" + suite, detail))

    # In-guest programs.
    sections = {}
    current = None
    for line in guest:
        m = RUN.match(line)
        if m:
            current = m.group(1)
            sections[current] = {"lines": [], "exit": None}
            continue
        m = EXIT.match(line)
        if m and current == m.group(2):
            sections[current]["exit"] = int(m.group(1))
            current = None
            continue
        if current:
            sections[current]["lines"].append(line)
    for prog in programs:
        sec = sections.get(prog)
        if sec is None:
            results.append((FAIL, prog, "did not run"))
            continue
        results += program_results(prog, sec["lines"], sec["exit"])
    if DONE not in guest:
        results.append((FAIL, "guest:done", "the guest never reached its end marker"))
    return results


def failure_reason(diagnostics):
    """The reason of a kselftest_harness.h "not ok": its assertions and
    TH_LOG() lines, or else its first line that is not the harness's own."""
    logged = [d for d in diagnostics if KSELFTEST_LOG.match(d)]
    if logged:
        more = len(logged) - MAX_REASON_LINES
        return " | ".join(logged[:MAX_REASON_LINES]) + (f" | (+{more} more)" if more > 0 else "")
    return next((d for d in diagnostics if not KSELFTEST_MARKER.match(d)), "")


def program_results(prog, lines, exit_code):
    """The results of one in-guest program from its output `lines` and its
    exit code (None when the guest printed no exit marker)."""
    results = []
    plan = None
    totals = None
    seen = {PASS: 0, FAIL: 0, SKIP: 0}
    diagnostics = []  # since the previous result
    # kselftest_harness.h's TAP: a "# Totals:" line at the end, and the
    # reason of a failure in the lines before it.
    kselftest = lines[:1] == ["TAP version 13"]
    for line in lines:
        m = PLAN.match(line)
        if m and plan is None:
            plan = int(m.group(1))
            continue
        m = RESULT.match(line)
        if m:
            name = prog + ":" + m.group(4)
            reason = skip_reason(m.group(5))
            if reason is not None:
                results.append((SKIP, name, reason))
            elif m.group(2) == "ok":
                results.append((PASS, name, ""))
            else:
                why = m.group(5).strip(" #")
                if not why and kselftest:
                    why = failure_reason(diagnostics)
                results.append((FAIL, name, why))
            seen[results[-1][0]] += 1
            diagnostics = []
            continue
        m = BAIL_OUT.match(line)
        if m:
            results.append((FAIL, prog + ":bail-out", m.group(1) or line))
            continue
        m = KSELFTEST_TOTALS.match(line)
        if m:
            totals = [int(n) for n in m.groups()]
            continue
        m = DIAGNOSTIC.match(line)
        if m:
            diagnostics.append(m.group(1).strip())
    count = sum(seen.values())
    if plan is None:
        results.append((FAIL, prog + ":plan", "no plan printed"))
    elif count != plan:
        results.append((FAIL, prog + ":plan", f"planned {plan} results, saw {count}"))
    if kselftest and totals is None:
        results.append((FAIL, prog + ":totals", "no '# Totals:' line (ended early?)"))
    elif totals is not None:
        p, f, xfail, xpass, s, e = totals
        want = (p + xfail + xpass, f + e, s)
        got = (seen[PASS], seen[FAIL], seen[SKIP])
        if want != got:
            results.append((FAIL, prog + ":totals",
                            "'# Totals:' counts %d passed, %d failed, %d skipped; "
                            "the results %d, %d, %d" % (want + got)))
    if exit_code is None:
        results.append((FAIL, prog + ":exit", "no exit marker (crashed or hung?)"))
    elif exit_code != 0:
        results.append((FAIL, prog + ":exit", f"exited with {exit_code}"))
    return results


def counts(results):
    """(passed, failed, skipped)."""
    return tuple(sum(1 for o, _, _ in results if o == want) for want in (PASS, FAIL, SKIP))


def check_panic(lines, regex, allow=()):
    """The results of a boot that must panic with a message matching REGEX
    before userspace: the panic line, no /init, and no other kernel error
    (the panic's own lines are allowed)."""
    results = []
    panic = re.compile(r"Kernel panic - not syncing: .*" + regex)
    if any(panic.search(line) for line in lines):
        results.append((PASS, "kernel:expected-panic", regex))
    else:
        results.append((FAIL, "kernel:expected-panic",
                        f"no 'Kernel panic - not syncing: ' line matches '{regex}'"))
    if any("Run /init as init process" in line for line in lines):
        results.append((FAIL, "kernel:panic-before-userspace", "the kernel ran /init"))
    errors, _ = kernel_errors(lines, list(allow) + [r"Kernel panic", r"---\[ end Kernel panic"])
    for line in errors:
        results.append((FAIL, "kernel:log-clean", line))
    return results


def report(results, out=sys.stdout):
    """Prints one line per result and the summary; returns the exit code:
    non-zero on any failure or when nothing passed."""
    for outcome, name, detail in results:
        shown = detail if outcome != PASS else ""
        print(f"{outcome}: {name}" + (f" ({shown})" if shown else ""), file=out)
    passed, failed, skipped = counts(results)
    print(f"{passed} passed, {failed} failed, {skipped} skipped", file=out)
    return 1 if failed or passed == 0 else 0


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--append", default="")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--log", required=True, help="where to save the console log")
    ap.add_argument("--kunit", action="append", default=[], help="expected KUnit suite")
    ap.add_argument("--program", action="append", default=[],
                    help="expected in-guest test program")
    ap.add_argument("--smp", type=int, default=1, help="QEMU -smp (default 1)")
    ap.add_argument("--memory", default="512M", help="QEMU -m (default 512M)")
    ap.add_argument("--cpu", default=GUEST_CPU,
                    help=f"QEMU -cpu (default {GUEST_CPU})")
    ap.add_argument("--disk", action="append", default=[], metavar="IMG",
                    help="a raw disk image, attached as a virtio disk with snapshot=on "
                         "(/dev/vda, then /dev/vdb, ...); repeatable")
    ap.add_argument("--allow-kernel-message", action="append", default=[], metavar="REGEX",
                    help="a kernel error line matching REGEX is not a failure")
    ap.add_argument("--expect-kernel-message", action="append", default=[], metavar="REGEX",
                    help="fail unless some console line matches REGEX")
    ap.add_argument("--expect-panic", metavar="REGEX",
                    help="the kernel must panic before userspace with a message matching "
                         "REGEX; no KUnit suite or program is expected then")
    ap.add_argument("--echo", action="store_true", help="echo the console")
    args = ap.parse_args(argv)
    if args.smp < 1:
        ap.error("--smp must be at least 1")
    if not re.fullmatch(r"[\w.=,+-]+", args.cpu):
        ap.error(f"--cpu {args.cpu}: not a QEMU CPU model with properties")
    for disk in args.disk:
        if "," in disk:
            ap.error(f"--disk {disk}: a comma would end QEMU's file= option")
        if not os.path.isfile(disk):
            ap.error(f"--disk {disk}: no such file")
    for regex in args.allow_kernel_message + args.expect_kernel_message + (
            [args.expect_panic] if args.expect_panic is not None else []):
        try:
            re.compile(regex)
        except re.error as e:
            ap.error(f"bad regex '{regex}': {e}")
    return args


def main(argv=None):
    args = parse_args(argv)
    append = "stacker_guest=test stacker_tests=" + ",".join(args.program) + " " + args.append
    guest_path = args.log + ".guest"
    cmd = qemu_command(args.kernel, args.initrd, append, guest_path, args.smp, args.memory,
                       args.disk, args.cpu)
    lines, guest, timed_out, secs = run_qemu(cmd, args.timeout, args.log, guest_path,
                                             args.echo)
    if args.expect_panic is not None:
        results = check_panic(lines, args.expect_panic, args.allow_kernel_message)
    else:
        results = check(lines, guest, args.kunit, args.program,
                        args.allow_kernel_message, args.expect_kernel_message)
    if timed_out:
        results.append((FAIL, "qemu:timeout", f"no power-off within {args.timeout} s"))
    for line in kernel_errors(lines + guest, args.allow_kernel_message)[1]:
        print(f"allowed kernel message: {line}")
    for line in first_report(lines, args.allow_kernel_message):
        print(f"kernel report| {line}")
    disks = "".join(f", disk {d}" for d in args.disk)
    cpu = f", -cpu {args.cpu}" if args.cpu != GUEST_CPU else ""
    print(f"boot test ({args.append or 'default'}, -smp {args.smp}, -m {args.memory}{cpu}{disks}) "
          f"took {secs:.1f} s; console log: {args.log}, guest output: {guest_path}")
    return report(results)


if __name__ == "__main__":
    sys.exit(main())

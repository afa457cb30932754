#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a stacker kernel in QEMU (TCG) and check what it reports.

The harness reads the serial console (kernel messages, KUnit) and the second
serial port (the in-guest programs' output, which the guest keeps apart so
that no kernel message can split a result line), and fails the run when:
  - an expected KUnit suite is missing or reports "not ok";
  - an in-guest test program did not run, printed no plan, printed fewer
    results than its plan, reported "not ok", or exited non-zero;
  - the kernel printed "BUG:", "WARNING:", "Oops" or "Kernel panic";
  - the guest did not reach its end marker before the timeout.
It prints one line per result and ends with "N passed, N failed".
"""

import argparse
import os
import re
import subprocess
import sys
import time

RESULT = re.compile(r"^(\s*)(not ok|ok) (\d+) (\S+)(.*)$")
PLAN = re.compile(r"^\s*1\.\.(\d+)\s*$")
KERNEL_ERROR = re.compile(r"\bBUG:|\bWARNING:|\bOops\b|Kernel panic")
RUN = re.compile(r"^stacker-guest: run (\S+)$")
EXIT = re.compile(r"^stacker-guest: exit (\d+) (\S+)$")
DONE = "stacker-guest: done"


def read_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [line.replace("\r", "").rstrip("\n") for line in f]
    except OSError:
        return []


def run_qemu(kernel, initrd, append, timeout, log_path, echo):
    """Returns (console lines, guest-program lines, timed out, seconds)."""
    guest_path = log_path + ".guest"
    if os.path.exists(guest_path):
        os.remove(guest_path)
    cmd = [
        "qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-m", "512M",
        "-smp", "1", "-nographic", "-no-reboot", "-kernel", kernel,
        "-initrd", initrd,
        "-serial", "mon:stdio", "-serial", "file:" + guest_path,
        "-append", "console=ttyS0 panic=-1 " + append,
    ]
    lines = []
    start = time.monotonic()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            proc.kill()
            proc.wait()
        data = proc.stdout.read().decode("utf-8", "replace")
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


def check(lines, guest, kunit_suites, programs):
    """Returns a list of (ok, name, detail)."""
    results = []
    first_guest = next((i for i, l in enumerate(lines) if l.startswith("stacker-guest:")),
                       len(lines))

    for line in lines + guest:
        if KERNEL_ERROR.search(line):
            results.append((False, "kernel:log-clean", line.strip()))

    # KUnit: top-level suite lines are "ok N suite" without indentation;
    # test cases are indented. Only the part of the log before /init runs.
    kunit_seen = {}
    for line in lines[:first_guest]:
        m = RESULT.match(line)
        if not m:
            continue
        indent, status, _, name, rest = m.groups()
        if status == "not ok" and "# SKIP" not in rest:
            results.append((False, "kunit:" + name, line.strip()))
        elif indent == "" and name in kunit_suites:
            kunit_seen[name] = True
    for suite in kunit_suites:
        if suite in kunit_seen:
            results.append((True, "kunit:" + suite, ""))
        elif not any(n == "kunit:" + suite for _, n, _ in results):
            results.append((False, "kunit:" + suite, "suite did not report"))

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
            results.append((False, prog, "did not run"))
            continue
        plan = None
        count = 0
        for line in sec["lines"]:
            m = PLAN.match(line)
            if m and plan is None:
                plan = int(m.group(1))
                continue
            m = RESULT.match(line)
            if m:
                count += 1
                ok = m.group(2) == "ok"
                results.append((ok, prog + ":" + m.group(4), m.group(5).strip(" #")))
        if plan is None:
            results.append((False, prog + ":plan", "no plan printed"))
        elif count != plan:
            results.append((False, prog + ":plan", f"planned {plan} results, saw {count}"))
        if sec["exit"] is None:
            results.append((False, prog + ":exit", "no exit marker (crashed or hung?)"))
        elif sec["exit"] != 0:
            results.append((False, prog + ":exit", f"exited with {sec['exit']}"))
    if DONE not in guest:
        results.append((False, "guest:done", "the guest never reached its end marker"))
    return results


def main():
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
    ap.add_argument("--echo", action="store_true", help="echo the console")
    args = ap.parse_args()

    append = "stacker_guest=test stacker_tests=" + ",".join(args.program) + " " + args.append
    lines, guest, timed_out, secs = run_qemu(args.kernel, args.initrd, append,
                                             args.timeout, args.log, args.echo)
    results = check(lines, guest, args.kunit, args.program)
    if timed_out:
        results.append((False, "qemu:timeout", f"no power-off within {args.timeout} s"))
    passed = sum(1 for ok, _, _ in results if ok)
    failed = len(results) - passed
    for ok, name, detail in results:
        print(f"{'PASS' if ok else 'FAIL'}: {name}" + (f" ({detail})" if detail and not ok else ""))
    print(f"boot test ({args.append or 'default'}) took {secs:.1f} s; "
          f"console log: {args.log}, guest output: {args.log}.guest")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

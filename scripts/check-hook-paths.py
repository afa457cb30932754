#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check the built stacker object: no hook entry point may reach a panic or
make an indirect branch.

Starts from every function of the entry module (the LSM hook entry points,
one per hook and tier) and follows its direct call and jump targets through
every function defined in stacker_main.o, transitively; functions defined
elsewhere (kernel functions) are not followed. Every function reached must
name no panic-like symbol in its relocations and make no indirect branch;
a finding is reported with its call path, demangled.

Branch targets come from the relocation on the instruction when it has one
(a function symbol, or a section symbol plus offset when the compiler used
per-function sections), else from the direct target objdump printed. The
printed target of a relocated branch is only the unrelocated placeholder.

Usage: check-hook-paths.py BUILD_DIR
  exits 0 when no entry point reaches a panic or an indirect branch, 1 with
  the findings (one call path a line) when one does, 2 on a usage error or
  when no entry point was found (the naming changed: nothing was checked).
"""

import bisect
import collections
import os
import re
import shutil
import subprocess
import sys

OBJECT = "security/stacker/stacker/kernel/stacker_main.o"

# Symbols whose use is a finding: Rust's panic paths, and the retpoline
# thunks an indirect call goes through.
PANIC = re.compile(r"panic|unwrap_failed|expect_failed")
THUNK = re.compile(r"__x86_indirect_")
# Entry points: the functions of the entry module (kernel/entry.rs), one per
# hook and dispatch tier, mangled as ...12stacker_main5entry...; its
# stacker_rs_* functions are called from C at init, not hooks.
ENTRY = re.compile(r"12stacker_main5entry[0-9]")
NOT_ENTRY = re.compile(r"stacker_rs_")

SECTION = re.compile(r"^Disassembly of section (\S+):$")
FUNCTION = re.compile(r"^([0-9a-f]+) <(.*)>:$")
RELOCATION = re.compile(r"^\s+[0-9a-f]+: (R_X86_64_\S+)\s+(\S+)$")
INSTRUCTION = re.compile(r"^ *([0-9a-f]+):\t(.*)$")
ADDEND = re.compile(r"([-+])0x([0-9a-f]+)$")
INDIRECT = re.compile(r"(call|jmp)[a-z]*\s+\*")
PREFIX = re.compile(r"^(cs|ds|es|ss|fs|gs|notrack|bnd|rex[.A-Z]*|data16|addr32)$")
DIRECT = re.compile(r"^(call|j)[a-z]*$")

Function = collections.namedtuple("Function", "name section start")
# A branch from function `source` to symbol `symbol` (when a relocation
# names one; a section symbol names its section), or to `offset` of
# `section`.
Branch = collections.namedtuple("Branch", "source symbol section offset")


class Disassembly:
    """What `objdump -dr --no-show-raw-insn` says of one object."""

    def __init__(self):
        self.functions = []
        self.defined = set()
        self.sections = set()
        self.entries = []
        self.branches = []
        # function -> its findings (" -> panic_symbol", ": indirect ..."),
        # in order, each once.
        self.findings = collections.defaultdict(list)
        self._starts = None

    def finding(self, function, what):
        if what not in self.findings[function]:
            self.findings[function].append(what)

    def containing(self, section, offset):
        """The function of `section` whose code holds `offset` (the last
        to start at or before it), or None."""
        if self._starts is None:
            # section -> (sorted starts, the first function at each).
            first = collections.defaultdict(dict)
            for f in self.functions:
                first[f.section].setdefault(f.start, f.name)
            self._starts = {sec: (sorted(at), at) for sec, at in first.items()}
        starts, names = self._starts.get(section, ([], {}))
        i = bisect.bisect_right(starts, offset)
        return names[starts[i - 1]] if i else None


def split_addend(symbol):
    """('sym', addend) of a relocation's 'sym+0x1c' or 'sym-0x4'."""
    m = ADDEND.search(symbol)
    if not m:
        return symbol, 0
    value = int(m.group(2), 16)
    return symbol[:m.start()], -value if m.group(1) == "-" else value


def parse(lines):
    """A Disassembly of objdump's output lines."""
    d = Disassembly()
    section = function = start = None
    # The direct branch of the last instruction, until the next line says
    # whether a relocation gives its real target: (section, target
    # address).
    pending = None

    def flush():
        nonlocal pending
        # A direct branch with no relocation: its printed target is the
        # real one (a jump inside the function itself is no call: the
        # call graph leaves it out).
        if pending:
            d.branches.append(Branch(function, None, pending[0], pending[1]))
        pending = None

    for line in lines:
        line = line.rstrip("\n")
        m = SECTION.match(line)
        if m:
            flush()
            section = m.group(1)
            d.sections.add(section)
            continue
        m = FUNCTION.match(line)
        if m:
            flush()
            function, start = m.group(2), int(m.group(1), 16)
            d.functions.append(Function(function, section, start))
            d.defined.add(function)
            if ENTRY.search(function) and not NOT_ENTRY.search(function):
                d.entries.append(function)
            continue
        if function is None:
            continue
        m = RELOCATION.match(line)
        if m:
            symbol, addend = split_addend(m.group(2))
            if PANIC.search(symbol):
                d.finding(function, " -> " + symbol)
            elif THUNK.search(symbol):
                d.finding(function, ": indirect call through " + symbol)
            elif pending:
                # PC-relative rel32 at the end of the instruction: the
                # target is the symbol plus addend plus 4.
                d.branches.append(Branch(function, symbol, symbol, addend + 4))
            pending = None
            continue
        m = INSTRUCTION.match(line)
        if m:
            flush()
            text = m.group(2)
            if INDIRECT.search(text):
                insn = " ".join(text.split())
                d.finding(function, ": indirect branch at +0x%x: %s"
                          % (int(m.group(1), 16) - start, insn))
                continue
            words = text.split()
            i = 0
            while i < len(words) and PREFIX.match(words[i]):
                i += 1
            if (i + 1 < len(words) and DIRECT.match(words[i])
                    and re.fullmatch(r"[0-9a-f]+", words[i + 1])):
                pending = (section, int(words[i + 1], 16))
            continue
        flush()
    flush()
    return d


def call_graph(d):
    """function -> the functions of this object it branches to, in order."""
    graph = collections.defaultdict(list)
    for b in d.branches:
        if b.symbol in d.defined:
            target = b.symbol
        elif b.section in d.sections:
            target = d.containing(b.section, b.offset)
        else:
            target = None
        if target and target != b.source and target not in graph[b.source]:
            graph[b.source].append(target)
    return graph


def check(d):
    """(findings, functions reached): each finding a call path from an entry
    point, 'entry -> f -> g' plus what is wrong."""
    graph = call_graph(d)
    entries = set(d.entries)
    report, reached = [], set()
    for root in d.entries:
        parent = {root: None}
        queue = collections.deque([root])

        def path(f):
            names = []
            while f is not None:
                names.append(f)
                f = parent[f]
            return " -> ".join(reversed(names))

        while queue:
            f = queue.popleft()
            # A panic-like function of this object: the path to it is the
            # finding.
            if f != root and (PANIC.search(f) or THUNK.search(f)):
                report.append(path(f))
                continue
            for what in d.findings.get(f, []):
                report.append(path(f) + what)
            for t in graph.get(f, []):
                if t in parent:
                    continue
                parent[t] = f
                queue.append(t)
                if t not in entries:
                    reached.add(t)
    return report, reached


def demangle(lines):
    """Rust symbols (v0 _R... or legacy _ZN...) demangled, when a demangler
    is installed."""
    tool = shutil.which("rustfilt") or shutil.which("c++filt")
    if not tool or not lines:
        return lines
    out = subprocess.run([tool], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, check=True).stdout
    return out.splitlines()


def log(msg):
    print(f"[stacker] {msg}", file=sys.stderr)


def main(argv):
    if len(argv) != 2:
        print("usage: check-hook-paths.py BUILD_DIR", file=sys.stderr)
        return 2
    obj = os.path.join(argv[1], OBJECT)
    if not os.path.isfile(obj):
        log(f"error: no {obj}: build the kernel first")
        return 2
    text = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", obj], capture_output=True,
                          text=True, check=True).stdout
    d = parse(text.splitlines())
    if not d.entries:
        log("error: no hook entry point (stacker_main::entry::*) found in the object: nothing checked")
        return 2
    report, reached = check(d)
    print(f"checked {len(d.entries)} hook entry points and {len(reached)} functions they reach",
          file=sys.stderr)
    if report:
        for line in demangle(report):
            print(line, file=sys.stderr)
        log("error: hook entry points with a panic path or an indirect branch (above)")
        return 1
    log("hook entry points: no panic path, no indirect branch")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

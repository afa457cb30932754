# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/check-hook-paths.py on crafted objdump output, in
the form `objdump -dr --no-show-raw-insn` prints for stacker_main.o."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "check-hook-paths.py")
spec = importlib.util.spec_from_file_location("check_hook_paths", SCRIPT)
chp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chp)

HOOK = "_RNvNtCs1_12stacker_main5entry9file_open"
HOOK2 = "_RNvNtCs1_12stacker_main5entry10task_alloc"
INIT = "_RNvNtCs1_12stacker_main5entry18stacker_rs_set_chain"
HELPER = "_RNvNtCs1_12stacker_main4mlte6decide"
INNER = "_RNvNtCs1_12stacker_main4mlte5cache"
PANIC = "_RNvNtCs2_4core9panicking18panic_bounds_check"
LOCAL_PANIC = "_RNvNtCs1_12stacker_main6unwrap_failed"
UNREACHED = "_RNvNtCs1_12stacker_main5other4load"


def fn(addr, name, *body):
    return [f"{addr:016x} <{name}>:"] + list(body) + [""]


def text(*functions, section=".text"):
    lines = ["", "stacker_main.o:     file format elf64-x86-64", "",
             "", f"Disassembly of section {section}:", ""]
    for f in functions:
        lines += f
    return lines


def call_reloc(at, symbol, addend="-0x4"):
    """A call whose target a relocation gives (the printed one is a
    placeholder: the next instruction)."""
    return [f"    {at:x}:\tcall   {at + 5:x} <x+0x{at + 5:x}>",
            f"\t\t\t{at + 1:x}: R_X86_64_PLT32\t{symbol}{addend}"]


def ret(at):
    return [f"    {at:x}:\tret"]


class Parse(unittest.TestCase):
    def test_entries_are_the_entry_modules_functions_but_its_init_calls(self):
        d = chp.parse(text(fn(0, HOOK, *ret(0)), fn(0x10, INIT, *ret(0x10)),
                           fn(0x20, HELPER, *ret(0x20))))
        self.assertEqual([HOOK], d.entries)

    def test_relocated_call_goes_to_the_relocations_symbol(self):
        d = chp.parse(text(fn(0, HOOK, *call_reloc(4, HELPER), *ret(9)),
                           fn(0x20, HELPER, *ret(0x20))))
        self.assertEqual([HELPER], chp.call_graph(d)[HOOK])

    def test_section_symbol_plus_addend_goes_to_the_function_there(self):
        # .text+0x1c: the rel32 ends 4 bytes before the target, 0x20.
        d = chp.parse(text(fn(0, HOOK, *call_reloc(4, ".text", "+0x1c"), *ret(9)),
                           fn(0x20, HELPER, *ret(0x20)), fn(0x30, INNER, *ret(0x30))))
        self.assertEqual([HELPER], chp.call_graph(d)[HOOK])

    def test_unrelocated_branch_goes_to_the_printed_target_but_not_inside(self):
        d = chp.parse(text(fn(0, HOOK,
                              "       4:\tje     8 <%s+0x8>" % HOOK,
                              "       6:\tjmp    20 <%s>" % HELPER,
                              *ret(8)),
                           fn(0x20, HELPER, *ret(0x20))))
        self.assertEqual([HELPER], chp.call_graph(d)[HOOK])

    def test_prefixes_before_the_mnemonic(self):
        d = chp.parse(text(fn(0, HOOK, "       4:\tcs jmp 20 <%s>" % HELPER),
                           fn(0x20, HELPER, *ret(0x20))))
        self.assertEqual([HELPER], chp.call_graph(d)[HOOK])

    def test_data_relocation_is_no_branch(self):
        d = chp.parse(text(fn(0, HOOK,
                              "       4:\tmov    0x0(%rip),%rax        # b <x+0xb>",
                              "\t\t\t7: R_X86_64_PC32\t%s-0x4" % HELPER, *ret(0xb)),
                           fn(0x20, HELPER, *ret(0x20))))
        self.assertEqual([], chp.call_graph(d).get(HOOK, []))


class Check(unittest.TestCase):
    def test_clean_object(self):
        d = chp.parse(text(fn(0, HOOK, *call_reloc(4, HELPER), *ret(9)),
                           fn(0x20, HELPER, *call_reloc(0x24, "kfree"), *ret(0x29))))
        self.assertEqual(([], {HELPER}), chp.check(d))

    def test_panic_two_calls_down_is_reported_with_its_path(self):
        d = chp.parse(text(fn(0, HOOK, *call_reloc(4, HELPER), *ret(9)),
                           fn(0x20, HELPER, *call_reloc(0x24, INNER), *ret(0x29)),
                           fn(0x30, INNER, *call_reloc(0x34, PANIC), *ret(0x39))))
        report, _ = chp.check(d)
        self.assertEqual([f"{HOOK} -> {HELPER} -> {INNER} -> {PANIC}"], report)

    def test_a_local_panic_function_is_a_finding(self):
        d = chp.parse(text(fn(0, HOOK, *call_reloc(4, LOCAL_PANIC), *ret(9)),
                           fn(0x20, LOCAL_PANIC, *call_reloc(0x24, "kfree"), *ret(0x29))))
        report, _ = chp.check(d)
        self.assertEqual([f"{HOOK} -> {LOCAL_PANIC}"], report)

    def test_indirect_branch_and_thunk(self):
        d = chp.parse(text(fn(0, HOOK, *call_reloc(4, HELPER), *ret(9)),
                           fn(0x20, HELPER, "      24:\tjmp    *%rax"),
                           fn(0x30, HOOK2, *call_reloc(0x34, "__x86_indirect_thunk_r11"),
                              *ret(0x39))))
        report, _ = chp.check(d)
        self.assertEqual([f"{HOOK} -> {HELPER}: indirect branch at +0x4: jmp *%rax",
                          f"{HOOK2}: indirect call through __x86_indirect_thunk_r11"], report)

    def test_a_panic_no_entry_point_reaches_is_not_a_finding(self):
        d = chp.parse(text(fn(0, HOOK, *ret(0)),
                           fn(0x20, UNREACHED, *call_reloc(0x24, PANIC), *ret(0x29)),
                           fn(0x30, INIT, *call_reloc(0x34, PANIC), *ret(0x39))))
        self.assertEqual(([], set()), chp.check(d))

    def test_panic_in_another_section_through_a_section_symbol(self):
        cold = text(fn(0x0, INNER, *call_reloc(4, PANIC), *ret(9)), section=".text.unlikely.")
        d = chp.parse(text(fn(0, HOOK, *call_reloc(4, ".text.unlikely.", "-0x4"), *ret(9)))
                      + cold)
        report, _ = chp.check(d)
        self.assertEqual([f"{HOOK} -> {INNER} -> {PANIC}"], report)


class Main(unittest.TestCase):
    def test_no_object_and_no_arguments_are_usage_errors(self):
        with tempfile.TemporaryDirectory() as d:
            for args in ([SCRIPT], [SCRIPT, d]):
                r = subprocess.run([sys.executable, "-B"] + args, capture_output=True, text=True)
                self.assertEqual(2, r.returncode, r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)

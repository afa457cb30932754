# SPDX-License-Identifier: GPL-2.0
"""Unit tests of boottest.py's parsing and checks, on crafted logs."""
import contextlib, io, os, sys, tempfile, unittest
sys.dont_write_bytecode = True
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import boottest as bt

KUNIT_OK = """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: stacker
    1..3
    ok 1 layout_fits
    ok 2 needs_xattr # SKIP no xattr support
        KTAP version 1
        # Subtest: params
        ok 1 p-0
        ok 2 p-1 # SKIP param skipped
    ok 3 params
ok 1 stacker
    KTAP version 1
    # Subtest: stacker_denyname
    1..1
    ok 1 rule
ok 2 stacker_denyname
stacker-guest: lsm: capability,stacker
""".splitlines()

def guest(prog, body, rc=0):
    return [f"stacker-guest: run {prog}"] + body.splitlines() + \
           [f"stacker-guest: exit {rc} {prog}", "stacker-guest: done"]

CHAIN_SKIPS = """\
KTAP version 1
# suite: chain
1..3
ok 1 init_succeeded
ok 2 bad_chain_names_logged_and_ignored # SKIP no stacker.chain= on the command line
not ok 3 inode_slots_disjoint # SKIP fewer than two xattrlock copies
# 1 passed, 0 failed, 2 skipped"""

# kselftest_harness.h (tools/testing/selftests), as the guest prints it:
# TAP version 13, the harness's own RUN/OK/FAIL lines, a failed assertion.
KSELFTEST = """\
TAP version 13
1..3
# Starting 3 tests from 1 test cases.
#  RUN           global.size_null_lsm_list_modules ...
#            OK  global.size_null_lsm_list_modules
ok 1 global.size_null_lsm_list_modules
#  RUN           global.needs_selinux ...
#      SKIP      selinux is not enabled
#            OK  global.needs_selinux
ok 2 global.needs_selinux # SKIP selinux is not enabled
#  RUN           global.correct_lsm_list_modules ...
# lsm_list_modules_test.c:138:correct_lsm_list_modules:Expected 0 (0) == strncmp(cp, name, strlen(name)) (42)
# correct_lsm_list_modules: Test terminated by assertion
#          FAIL  global.correct_lsm_list_modules
not ok 3 global.correct_lsm_list_modules
# FAILED: 1 / 3 tests passed.
# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0"""

def by(results, outcome):
    return [n for o, n, _ in results if o == outcome]

class T(unittest.TestCase):
    def test_skip_is_its_own_outcome(self):
        r = bt.check(KUNIT_OK, guest("chain_test", CHAIN_SKIPS), ["stacker", "stacker_denyname"], ["chain_test"])
        self.assertEqual(by(r, bt.FAIL), [])
        self.assertEqual(sorted(by(r, bt.SKIP)), sorted([
            "kunit:stacker.needs_xattr", "kunit:stacker.params.p-1",
            "chain_test:bad_chain_names_logged_and_ignored", "chain_test:inode_slots_disjoint"]))
        self.assertEqual(sorted(by(r, bt.PASS)), ["chain_test:init_succeeded", "kunit:stacker", "kunit:stacker_denyname"])
        out = io.StringIO()
        self.assertEqual(bt.report(r, out), 0)
        text = out.getvalue()
        print(text)
        self.assertIn("SKIP: chain_test:bad_chain_names_logged_and_ignored (no stacker.chain= on the command line)\n", text)
        self.assertTrue(text.endswith("3 passed, 0 failed, 4 skipped\n"))

    def test_kselftest_tap(self):
        prog = "lsm_list_modules_test"
        r = bt.check(KUNIT_OK, guest(prog, KSELFTEST, rc=1), [], [prog])
        self.assertEqual(by(r, bt.PASS), [prog + ":global.size_null_lsm_list_modules"])
        self.assertIn((bt.SKIP, prog + ":global.needs_selinux", "selinux is not enabled"), r)
        # The failed assertion is the reason, not the harness's own lines.
        self.assertIn((bt.FAIL, prog + ":global.correct_lsm_list_modules",
                       "lsm_list_modules_test.c:138:correct_lsm_list_modules:Expected 0 (0) == "
                       "strncmp(cp, name, strlen(name)) (42)"), r)
        self.assertIn((bt.FAIL, prog + ":exit", "exited with 1"), r)
        self.assertEqual(len(by(r, bt.FAIL)), 2)  # the plan of 3 was kept
        # A failure without an assertion line has no reason; a KTAP
        # program's diagnostics are never taken for one.
        bare = KSELFTEST.replace("# lsm_list_modules_test.c:138:", "#  RUN  x:")
        r = bt.check(KUNIT_OK, guest(prog, bare, rc=1), [], [prog])
        self.assertIn((bt.FAIL, prog + ":global.correct_lsm_list_modules", ""), r)
        ktap = "KTAP version 1\n# suite: chain\n1..1\nnot ok 1 blocked"
        r = bt.check(KUNIT_OK, guest("chain_test", ktap), [], ["chain_test"])
        self.assertIn((bt.FAIL, "chain_test:blocked", ""), r)

    def test_only_skips_is_failure_exit(self):
        r = bt.check([], guest("p", "1..1\nok 1 a # SKIP why"), [], ["p"])
        out = io.StringIO()
        self.assertEqual(bt.report(r, out), 1)
        self.assertIn("0 passed, 0 failed, 1 skipped", out.getvalue())

    def test_kunit_suite_skipped_or_not_ok_skip(self):
        for line in ("ok 1 stacker # SKIP all skipped", "not ok 1 stacker # SKIP all skipped"):
            r = bt.check([line], [], ["stacker"], [])
            self.assertIn((bt.SKIP, "kunit:stacker", "all skipped"), r)
            self.assertNotIn("kunit:stacker", by(r, bt.PASS))

    def test_kunit_failures(self):
        r = bt.check(["    # Subtest: stacker", "    not ok 1 layout_fits", "not ok 1 stacker"], [bt.DONE], ["stacker", "stacker_denyname"], [])
        self.assertEqual(by(r, bt.FAIL), ["kunit:stacker.layout_fits", "kunit:stacker", "kunit:stacker_denyname"])

    def test_guest_failures(self):
        r = bt.check([], guest("p", "1..3\nok 1 a\nnot ok 2 b # expected EACCES, got success", rc=1), [], ["p", "q"])
        self.assertEqual(by(r, bt.FAIL), ["p:b", "p:plan", "p:exit", "q"])
        r = bt.check([], ["stacker-guest: run p", "1..1", "ok 1 a"], [], ["p"])
        self.assertEqual(by(r, bt.FAIL), ["p:exit", "guest:done"])

    WARN = ["[stacker] whatever", "stacker: submodule init failed: EINVAL",
            "------------[ cut here ]------------",
            "WARNING: CPU: 0 PID: 0 at security/lsm_init.c:412 lsm_init_single+0x6e/0x90",
            "Modules linked in:", "CPU: 0 UID: 0 PID: 0 Comm: swapper Not tainted 7.3.0 #1",
            "RIP: 0010:lsm_init_single+0x6e/0x90", "Call Trace:", " <TASK>",
            " security_init+0x1a/0x30", " </TASK>", "---[ end trace 0000000000000000 ]---",
            "stacker failed to initialize: EINVAL"]

    def test_allow_and_expect(self):
        allow = [r"WARNING: .* at security/lsm_init\.c"]
        expect = ["stacker failed to initialize"]
        r = bt.check(self.WARN, [], [], [])
        self.assertEqual(by(r, bt.FAIL), ["kernel:log-clean", "guest:done"])
        r = bt.check(self.WARN, [bt.DONE], [], [], allow, expect)
        self.assertEqual(by(r, bt.FAIL), [])
        self.assertEqual(by(r, bt.PASS), ["kernel:expected-message"])
        # A WARNING elsewhere is still a failure; a missing expected message fails.
        other = self.WARN + ["WARNING: CPU: 0 PID: 1 at mm/slub.c:100 foo+0x1/0x2"]
        r = bt.check(other, [bt.DONE], [], [], allow, ["never printed"])
        self.assertEqual([(o, n) for o, n, _ in r],
                         [(bt.FAIL, "kernel:log-clean"), (bt.FAIL, "kernel:expected-message")])

    def test_debug_kernel_errors(self):
        for line in ["BUG: sleeping function called from invalid context at mm/x.c:1",
                     "WARNING: suspicious RCU usage", "INFO: possible recursive locking detected",
                     "list_add corruption. prev->next should be next", "list_del corruption, ffff",
                     "WARNING: inconsistent lock state", "WARNING: possible circular locking dependency detected",
                     "BUG: scheduling while atomic: swapper/0/1/0x00000002",
                     "UBSAN: array-index-out-of-bounds in security/stacker/x.c:3:4",
                     "BUG: KASAN: slab-out-of-bounds in foo", "Kernel panic - not syncing: x",
                     "Oops: general protection fault", "=" * 66, "[    1.234567] " + "=" * 66, "=" * 77,
                     "KASAN: null-ptr-deref in range [0x0000000000000008-0x000000000000000f]",
                     "BUG kmalloc-64 (Not tainted): Redzone overwritten",
                     "BUG lsm_inode_cache (Tainted: G    B             ): Poison overwritten",
                     "[ BUG: Invalid wait context ]", "sleeping function called from invalid context"]:
            self.assertTrue(bt.KERNEL_ERROR.search(line), line)
        for line in ["kasan: KernelAddressSanitizer initialized", "stacker: registered 7 of 38 hooks",
                     "ok 1 stacker", "Run /init as init process", "=" * 29, "a == b",
                     "BUG-free", "# == " + "=" * 70]:
            self.assertFalse(bt.KERNEL_ERROR.search(line), line)

    # A KASAN report as the debug kernel printed it (a read one byte past
    # an 8-byte KVec in denyname's file_open, put there on purpose once to
    # check that KASAN instruments stacker's Rust; trimmed).
    KASAN_REPORT = """\
==================================================================
BUG: KASAN: slab-out-of-bounds in _RNvXs1_NtCs8RQ9ZgUGPEK_12stacker_main8denynameNtB5_8DenyNameNtNtB7_9submodule9Submodule9file_open+0x157/0x15c
Read of size 1 at addr ff1100000596dd00 by task denyname_test/68

CPU: 0 UID: 0 PID: 68 Comm: denyname_test Tainted: G                 N  7.3.4 #2 PREEMPTLAZY
Tainted: [N]=TEST
Call Trace:
 <TASK>
 dump_stack_lvl+0x67/0x90
 print_report+0x177/0x4e0
 kasan_report+0xb8/0xf0
 _RNvXs1_NtCs8RQ9ZgUGPEK_12stacker_main8denynameNtB5_8DenyNameNtNtB7_9submodule9Submodule9file_open+0x157/0x15c
 security_file_open+0x24/0x80
 do_dentry_open+0x321/0xf60
 </TASK>

Allocated by task 68:
 kasan_save_track+0x3f/0x70
 __kasan_kmalloc+0x70/0x80
 krealloc_node_align_noprof+0x15f/0x300

The buggy address belongs to the object at ff1100000596dcf8
 which belongs to the cache kmalloc-8 of size 8
The buggy address is located 0 bytes to the right of
 allocated 8-byte region [ff1100000596dcf8, ff1100000596dd00)

page dumped because: kasan: bad access detected

Memory state around the buggy address:
 ff1100000596dc80: fc fc fc fc fc fc fc fc fc fc fc fc fc fc fc 00
>ff1100000596dd00: fc fc fc fc fc fc fc fc fc fc fc fc fc fc fc fc
                   ^
==================================================================
Disabling lock debugging due to kernel taint""".splitlines()

    def test_kasan_report_fails_the_boot(self):
        # The whole report: the banner and the title line are failures,
        # the rest of it (call trace, shadow dump) is not matched line by line.
        r = bt.check(self.KASAN_REPORT, [bt.DONE], [], [])
        fails = [d for o, n, d in r if o == bt.FAIL]
        self.assertEqual(by(r, bt.FAIL), ["kernel:log-clean"] * 3)
        self.assertEqual(fails[1].split(" in ")[0], "BUG: KASAN: slab-out-of-bounds")
        self.assertEqual(fails[0], "=" * 66)
        # The init-failure boots' allowance does not excuse it, nor does
        # it pass a boot whose expected message is there.
        allow = [r"WARNING: .*security/lsm_init\.c"]
        r = bt.check(self.WARN + self.KASAN_REPORT, [bt.DONE], [], [], allow,
                     ["stacker failed to initialize"])
        self.assertEqual(by(r, bt.FAIL), ["kernel:log-clean"] * 3)
        self.assertIn((bt.PASS, "kernel:expected-message", "stacker failed to initialize"), r)
        # A report whose title line was lost (interleaved with another
        # CPU's output) still fails on its banners.
        garbled = [l for l in self.KASAN_REPORT if not l.startswith("BUG:")]
        r = bt.check(garbled, [bt.DONE], [], [])
        self.assertEqual(by(r, bt.FAIL), ["kernel:log-clean"] * 2)
        # A wild access: a general protection fault with KASAN's range.
        gpf = ["Oops: general protection fault, probably for non-canonical address "
               "0xdffffc0000000001: 0000 [#1] SMP KASAN",
               "KASAN: null-ptr-deref in range [0x0000000000000008-0x000000000000000f]"]
        r = bt.check(gpf, [bt.DONE], [], [])
        self.assertEqual([d for o, n, d in r if o == bt.FAIL], gpf)
        # The report on the guest's port (never expected there) counts too.
        r = bt.check([], guest("p", "1..1\nok 1 a") + self.KASAN_REPORT[:2], [], ["p"])
        self.assertEqual(by(r, bt.FAIL), ["kernel:log-clean"] * 2)

    def test_args_and_qemu_command(self):
        a = bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l"])
        self.assertEqual((a.smp, a.memory, a.allow_kernel_message, a.expect_kernel_message), (1, "512M", [], []))
        self.assertEqual(a.cpu, "max")
        cmd = bt.qemu_command("k", "i", "", "g")
        self.assertEqual(cmd[cmd.index("-cpu") + 1], "max")
        a = bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l", "--cpu", "max,la57=off"])
        cmd = bt.qemu_command("k", "i", "", "g", cpu=a.cpu)
        self.assertEqual(cmd[cmd.index("-cpu") + 1], "max,la57=off")
        with contextlib.redirect_stderr(io.StringIO()):
            with self.assertRaises(SystemExit):
                bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l", "--cpu", "max -s"])
        a = bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l", "--smp", "4", "--memory", "1G",
                           "--allow-kernel-message", "a", "--allow-kernel-message", "b",
                           "--expect-kernel-message", "c"])
        self.assertEqual((a.smp, a.memory, a.allow_kernel_message, a.expect_kernel_message), (4, "1G", ["a", "b"], ["c"]))
        cmd = bt.qemu_command("k", "i", "x=1", "g", a.smp, a.memory)
        self.assertEqual(cmd[cmd.index("-smp") + 1], "4")
        self.assertEqual(cmd[cmd.index("-m") + 1], "1G")
        self.assertEqual(cmd[cmd.index("-append") + 1], "console=ttyS0 panic=-1 x=1")
        self.assertEqual(bt.qemu_command("k", "i", "", "g")[bt.qemu_command("k", "i", "", "g").index("-smp") + 1], "1")
        self.assertNotIn("-drive", bt.qemu_command("k", "i", "", "g"))
        cmd = bt.qemu_command("k", "i", "", "g", disks=["a.img", "b.img"])
        drives = [cmd[i + 1] for i, w in enumerate(cmd) if w == "-drive"]
        self.assertEqual(drives, ["file=a.img,format=raw,if=virtio,snapshot=on",
                                  "file=b.img,format=raw,if=virtio,snapshot=on"])

    def test_disk_args(self):
        with tempfile.TemporaryDirectory() as d:
            img = os.path.join(d, "x.img")
            open(img, "wb").close()
            a = bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l", "--disk", img])
            self.assertEqual(a.disk, [img])
            self.assertEqual(bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l"]).disk, [])
            with contextlib.redirect_stderr(io.StringIO()):
                for bad in [os.path.join(d, "missing.img"), img + ",if=ide"]:
                    with self.assertRaises(SystemExit):
                        bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l", "--disk", bad])

if __name__ == "__main__":
    unittest.main(verbosity=2)

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

# A guest program on kselftest_harness.h (chain_test in the "empty"
# boot), as the guest prints it: TAP version 13, the harness's own
# RUN/OK lines, skips with their reason, the totals.
CHAIN_SKIPS = """\
TAP version 13
1..3
# Starting 3 tests from 2 test cases.
#  RUN           global.init_succeeded ...
#            OK  global.init_succeeded
ok 1 global.init_succeeded
#  RUN           chain.bad_chain_names_logged_and_ignored ...
#      SKIP      no stacker.chain= on the command line
#            OK  chain.bad_chain_names_logged_and_ignored
ok 2 chain.bad_chain_names_logged_and_ignored # SKIP no stacker.chain= on the command line
#  RUN           chain.inode_slots_disjoint ...
#      SKIP      fewer than two xattrlock copies
#            OK  chain.inode_slots_disjoint
ok 3 chain.inode_slots_disjoint # SKIP fewer than two xattrlock copies
# PASSED: 3 / 3 tests passed.
# 2 skipped test(s) detected. Consider enabling relevant config options to improve coverage.
# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:2 error:0"""

# Two failed tests: an EXPECT with TH_LOG() messages after a context line
# of the program's own, and an ASSERT in a fixture's setup.
FAILURES = """\
TAP version 13
1..3
# Starting 3 tests from 2 test cases.
#  RUN           chain.hooks_are_those_of_the_chain ...
# hooks file:
#   file_open denyname
# chain_test.c:244:hooks_are_those_of_the_chain:Expected 0 (0) == strcmp(buf, self->expect) (1)
# chain_test.c:244:hooks_are_those_of_the_chain:the hooks file differs from what the chain implements (above)
# hooks_are_those_of_the_chain: Test failed
#          FAIL  chain.hooks_are_those_of_the_chain
not ok 1 chain.hooks_are_those_of_the_chain
#  RUN           chain.dispatch_tier_fits_the_chain ...
# chain_test.c:170:dispatch_tier_fits_the_chain:Expected 0 (0) != status_is_ok("/sys/kernel/security/stacker/status", __shown, sizeof(__shown)) (0)
# chain_test.c:170:dispatch_tier_fits_the_chain:/sys/kernel/security/stacker/status is 'failed: layout check: x', expected 'ok'
# dispatch_tier_fits_the_chain: Test terminated by assertion
#          FAIL  chain.dispatch_tier_fits_the_chain
not ok 2 chain.dispatch_tier_fits_the_chain
#  RUN           chain.slow ...
# slow: Test terminated by timeout
#          FAIL  chain.slow
not ok 3 chain.slow
# FAILED: 0 / 3 tests passed.
# Totals: pass:0 fail:3 xfail:0 xpass:0 skip:0 error:0"""

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
    def test_expected_panic(self):
        panicked = ["stacker: submodule capstack init: error -19; left out",
                    "Kernel panic - not syncing: stacker: did not start as configured",
                    "---[ end Kernel panic - not syncing: stacker: did not start ]---"]
        r = bt.check_panic(panicked, "stacker: did not start")
        self.assertEqual(by(r, bt.FAIL), [])
        self.assertEqual(by(r, bt.PASS), ["kernel:expected-panic"])
        # No panic, another panic, or a boot that reached userspace fail.
        self.assertEqual(by(bt.check_panic(panicked[:1], "stacker"), bt.FAIL),
                         ["kernel:expected-panic"])
        self.assertEqual(by(bt.check_panic(panicked, "something else"), bt.FAIL),
                         ["kernel:expected-panic"])
        self.assertIn("kernel:panic-before-userspace",
                      by(bt.check_panic(panicked + ["Run /init as init process"], "stacker"), bt.FAIL))
        # Another kernel error next to the panic still fails.
        self.assertIn("kernel:log-clean",
                      by(bt.check_panic(panicked + ["BUG: unable to handle"], "stacker"), bt.FAIL))

    def test_skip_is_its_own_outcome(self):
        r = bt.check(KUNIT_OK, guest("chain_test", CHAIN_SKIPS), ["stacker", "stacker_denyname"], ["chain_test"])
        self.assertEqual(by(r, bt.FAIL), [])
        self.assertEqual(sorted(by(r, bt.SKIP)), sorted([
            "kunit:stacker.needs_xattr", "kunit:stacker.params.p-1",
            "chain_test:chain.bad_chain_names_logged_and_ignored", "chain_test:chain.inode_slots_disjoint"]))
        self.assertEqual(sorted(by(r, bt.PASS)), ["chain_test:global.init_succeeded", "kunit:stacker", "kunit:stacker_denyname"])
        out = io.StringIO()
        self.assertEqual(bt.report(r, out), 0)
        text = out.getvalue()
        print(text)
        self.assertIn("SKIP: chain_test:chain.bad_chain_names_logged_and_ignored (no stacker.chain= on the command line)\n", text)
        self.assertTrue(text.endswith("3 passed, 0 failed, 4 skipped\n"))
        # A "not ok" with a SKIP directive is a skip too.
        r = bt.check([], guest("p", "1..1\nnot ok 1 a # SKIP why"), [], ["p"])
        self.assertEqual([(o, n) for o, n, _ in r], [(bt.SKIP, "p:a")])

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
        self.assertEqual(len(by(r, bt.FAIL)), 2)  # the plan of 3 and the totals were kept
        # A failure without an assertion line: the harness's line on how
        # the test ended. A non-kselftest program's diagnostics are never
        # taken for a reason.
        bare = KSELFTEST.replace("# lsm_list_modules_test.c:138:", "#  RUN  x:")
        r = bt.check(KUNIT_OK, guest(prog, bare, rc=1), [], [prog])
        self.assertIn((bt.FAIL, prog + ":global.correct_lsm_list_modules",
                       "correct_lsm_list_modules: Test terminated by assertion"), r)
        ktap = "KTAP version 1\n# suite: chain\n1..1\n# why\nnot ok 1 blocked"
        r = bt.check(KUNIT_OK, guest("chain_test", ktap), [], ["chain_test"])
        self.assertIn((bt.FAIL, "chain_test:blocked", ""), r)

    def test_kselftest_failure_reasons(self):
        r = bt.check([], guest("chain_test", FAILURES, rc=1), [], ["chain_test"])
        self.assertEqual(by(r, bt.PASS), [])
        # The assertion and the TH_LOG() line, not the program's context lines.
        self.assertIn((bt.FAIL, "chain_test:chain.hooks_are_those_of_the_chain",
                       "chain_test.c:244:hooks_are_those_of_the_chain:Expected 0 (0) == "
                       "strcmp(buf, self->expect) (1) | chain_test.c:244:hooks_are_those_of_the_chain:"
                       "the hooks file differs from what the chain implements (above)"), r)
        # A fixture's failed precondition fails the test, with its message.
        reason = dict((n, d) for o, n, d in r)["chain_test:chain.dispatch_tier_fits_the_chain"]
        self.assertTrue(reason.endswith("status is 'failed: layout check: x', expected 'ok'"), reason)
        self.assertIn((bt.FAIL, "chain_test:chain.slow", "slow: Test terminated by timeout"), r)
        self.assertEqual(by(r, bt.FAIL), ["chain_test:chain.hooks_are_those_of_the_chain",
                                          "chain_test:chain.dispatch_tier_fits_the_chain",
                                          "chain_test:chain.slow", "chain_test:exit"])
        # More than MAX_REASON_LINES logged lines: the first ones, and how many more.
        many = "\n".join(f"# t.c:{i}:x:line {i}" for i in range(6))
        text = "TAP version 13\n1..1\n" + many + "\nnot ok 1 global.x\n" \
               "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
        r = bt.check([], guest("p", text, rc=1), [], ["p"])
        self.assertIn((bt.FAIL, "p:global.x",
                       "t.c:0:x:line 0 | t.c:1:x:line 1 | t.c:2:x:line 2 | t.c:3:x:line 3 | (+2 more)"), r)

    def test_kselftest_totals_and_early_ends(self):
        prog = "chain_test"
        # The totals must be there and add up to the results.
        no_totals = CHAIN_SKIPS.rsplit("\n", 1)[0]
        r = bt.check([], guest(prog, no_totals), [], [prog])
        self.assertEqual([(o, n, d) for o, n, d in r if o == bt.FAIL],
                         [(bt.FAIL, prog + ":totals", "no '# Totals:' line (ended early?)")])
        wrong = CHAIN_SKIPS.replace("pass:1 fail:0", "pass:2 fail:0")
        r = bt.check([], guest(prog, wrong), [], [prog])
        self.assertEqual([(o, n, d) for o, n, d in r if o == bt.FAIL],
                         [(bt.FAIL, prog + ":totals", "'# Totals:' counts 2 passed, 0 failed, "
                           "2 skipped; the results 1, 0, 2")])
        # A program that crashed after its first test: the plan, the
        # totals and the exit code fail it.
        crashed = "\n".join(CHAIN_SKIPS.splitlines()[:6] + ["#  RUN           chain.x ..."])
        r = bt.check([], guest(prog, crashed, rc=139), [], [prog])
        self.assertEqual(by(r, bt.PASS), [prog + ":global.init_succeeded"])
        self.assertEqual([(o, n, d) for o, n, d in r if o == bt.FAIL], [
            (bt.FAIL, prog + ":plan", "planned 3 results, saw 1"),
            (bt.FAIL, prog + ":totals", "no '# Totals:' line (ended early?)"),
            (bt.FAIL, prog + ":exit", "exited with 139")])
        # A program that bailed out (ksft_exit_fail_msg()).
        bailed = "TAP version 13\n1..2\nBail out! no fixture disk\n" \
                 "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:0"
        r = bt.check([], guest(prog, bailed, rc=1), [], [prog])
        self.assertEqual(by(r, bt.FAIL), [prog + ":bail-out", prog + ":plan", prog + ":exit"])
        self.assertIn((bt.FAIL, prog + ":bail-out", "no fixture disk"), r)

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

    def test_first_report_is_the_first_error_and_what_follows(self):
        lines = ["boot", "WARNING: allowed here", "x", "BUG: unable to handle page fault",
                 "RIP: 0010:f+0x1/0x2", "Call Trace:"] + [f"l{i}" for i in range(40)]
        r = bt.first_report(lines, ["allowed here"])
        self.assertEqual(r[:3], ["BUG: unable to handle page fault", "RIP: 0010:f+0x1/0x2",
                                 "Call Trace:"])
        self.assertEqual(len(r), 30)
        self.assertEqual(bt.first_report(["ok", "fine"]), [])

    def test_args_and_qemu_command(self):
        a = bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l"])
        self.assertEqual((a.smp, a.memory, a.allow_kernel_message, a.expect_kernel_message), (1, "512M", [], []))
        self.assertEqual(a.cpu, "max,la57=off")
        cmd = bt.qemu_command("k", "i", "", "g")
        self.assertEqual(cmd[cmd.index("-cpu") + 1], "max,la57=off")
        a = bt.parse_args(["--kernel", "k", "--initrd", "i", "--log", "l", "--cpu", "max"])
        cmd = bt.qemu_command("k", "i", "", "g", cpu=a.cpu)
        self.assertEqual(cmd[cmd.index("-cpu") + 1], "max")
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

class RunQemu(unittest.TestCase):
    """run_qemu() on a stand-in for QEMU that writes more than a pipe holds."""

    def test_console_beyond_a_pipe_is_read_while_it_runs(self):
        # 256 KiB of console, then the guest-program file: a reader that
        # only waits fills the pipe at 64 KiB and the stand-in never ends.
        script = ("import sys\n"
                  "for i in range(4096): print('x' * 63)\n"
                  "open(sys.argv[1], 'w').write('stacker-guest: done\\n')\n")
        with tempfile.TemporaryDirectory() as d:
            log, guest = os.path.join(d, "log"), os.path.join(d, "log.guest")
            cmd = [sys.executable, "-c", script, guest]
            lines, guest_lines, timed_out, _ = bt.run_qemu(cmd, 20, log, guest, False)
            self.assertFalse(timed_out)
            self.assertEqual(4096, len(lines))
            self.assertEqual(["stacker-guest: done"], guest_lines)
            self.assertEqual(4096 * 64, os.path.getsize(log))

    def test_timeout_keeps_what_was_printed(self):
        script = "import time\nprint('booting', flush=True)\ntime.sleep(60)\n"
        with tempfile.TemporaryDirectory() as d:
            log, guest = os.path.join(d, "log"), os.path.join(d, "log.guest")
            lines, _, timed_out, took = bt.run_qemu([sys.executable, "-c", script], 2, log,
                                                    guest, False)
            self.assertTrue(timed_out)
            self.assertEqual(["booting"], lines)
            self.assertLess(took, 30)


if __name__ == "__main__":
    unittest.main(verbosity=2)

# SPDX-License-Identifier: GPL-2.0
"""Unit tests of boots.py: the table and the driver, with boottest.py faked."""
import contextlib, io, os, sys, tempfile, unittest
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import boots

GUEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "guest")


class Table(unittest.TestCase):
    def test_names_are_unique(self):
        names = [b[0] for b in boots.BOOTS]
        self.assertEqual(len(names), len(set(names)))

    def test_every_program_exists(self):
        for name, _, programs, _ in boots.BOOTS:
            for p in programs:
                if p in boots.LSM_SELFTESTS:
                    continue
                self.assertTrue(os.path.exists(os.path.join(GUEST, p + ".c")), f"{name}: {p}")

    def test_placeholders_expand(self):
        words = boots.expand(boots.INTEGRITY + boots.LONG, {"out": "/o", "long_timeout": 600})
        self.assertEqual(words, ["--disk", "/o/integrity/integrity.img", "--timeout", "600"])


class Driver(unittest.TestCase):
    """main() with run_boot replaced: each boot 'writes' the result given."""

    def run_main(self, results, argv):
        calls = []

        def fake(args, name, append, extra):
            calls.append((name, append, extra))
            text, rc, console = results.get(name, ("1 passed, 0 failed, 0 skipped\n", 0, ""))
            with open(os.path.join(args.out, f"boot-{name}.result"), "w") as f:
                f.write(text)
            with open(os.path.join(args.out, f"boot-{name}.log"), "w") as f:
                f.write(console)
            return rc

        with tempfile.TemporaryDirectory() as out:
            old = boots.run_boot, sys.argv
            boots.run_boot = fake
            sys.argv = ["boots.py", "--kernel", "k", "--initrd", "i", "--out", out] + argv
            stdout, stderr = io.StringIO(), io.StringIO()
            try:
                with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                    rc = boots.main()
            finally:
                boots.run_boot, sys.argv = old
        return rc, calls, stdout.getvalue(), stderr.getvalue()

    def test_only_runs_those(self):
        rc, calls, out, _ = self.run_main({}, ["--only", "two", "--only", "single"])
        self.assertEqual(rc, 0)
        self.assertEqual([c[0] for c in calls], ["two", "single"])
        self.assertIn("boot: 2 passed, 0 failed, 0 skipped", out)

    def test_unknown_name_fails(self):
        rc, calls, _, err = self.run_main({}, ["--only", "nosuch"])
        self.assertEqual((rc, calls), (2, []))
        self.assertIn("no such boot: nosuch", err)

    def test_failed_boot_fails_the_run(self):
        rc, _, out, err = self.run_main(
            {"two": ("FAIL: x\n0 passed, 1 failed, 0 skipped\n", 1, "")},
            ["--only", "two", "--only", "single"])
        self.assertEqual(rc, 1)
        self.assertIn("FAIL: x", out)
        self.assertIn("boot: 1 passed, 1 failed, 0 skipped", out)
        self.assertIn("boot tests FAILED: two", err)

    def test_no_summary_is_a_failure(self):
        rc, _, out, _ = self.run_main({"two": ("garbage\n", 0, "")}, ["--only", "two"])
        self.assertEqual(rc, 1)
        self.assertIn("boot: 0 passed, 1 failed, 0 skipped", out)

    def test_hang_before_userspace_is_retried_once(self):
        rc, calls, _, err = self.run_main(
            {"two": ("FAIL: qemu:timeout\n0 passed, 1 failed, 0 skipped\n", 1, "booting")},
            ["--only", "two"])
        self.assertEqual([c[0] for c in calls], ["two", "two"])
        self.assertEqual(rc, 1)
        self.assertIn("running it once more", err)

    def test_hang_after_userspace_is_not_retried(self):
        _, calls, _, _ = self.run_main(
            {"two": ("FAIL: qemu:timeout\n0 passed, 1 failed, 0 skipped\n", 1,
                     "Run /init as init process")}, ["--only", "two"])
        self.assertEqual(len(calls), 1)

    def test_debug_adds_kmemleak(self):
        _, calls, _, _ = self.run_main({}, ["--only", "two", "--debug"])
        self.assertIn("kmemleak_check", calls[0][2])


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""sepolgen, the library behind audit2allow and audit2why, reads mlte's
denial lines: tests/mlte/avc-sample.log holds the line mlte logs for a
denial (modules/mlte/hook_tests.rs checks that it is mlte's, byte for
byte), and audit2allow's parser must find its whole contexts in it and
make the rule it asks for.

Run with Debian's python3 (package python3-sepolgen, which
scripts/setup.sh installs): /usr/bin/python3 -m unittest
tests/mlte/test_sepolgen.py
"""
import pathlib
import sys
import unittest

sys.path.append("/usr/lib/python3/dist-packages")
import sepolgen.audit as audit  # noqa: E402
import sepolgen.policygen as policygen  # noqa: E402

SAMPLE = pathlib.Path(__file__).resolve().parent / "avc-sample.log"


class Sepolgen(unittest.TestCase):
    def parsed(self, text):
        parser = audit.AuditParser()
        parser.parse_string(text)
        return parser

    def test_mlte_lines_parse_with_whole_contexts(self):
        (msg,) = self.parsed(SAMPLE.read_text()).avc_msgs
        self.assertEqual("system_u:system_r:init_t:s0", str(msg.scontext))
        self.assertEqual("system_u:object_r:etc_t:s1:c0-s2:c0.c2", str(msg.tcontext))
        self.assertEqual(("system_u", "system_r", "init_t", "s0"),
                         (msg.scontext.user, msg.scontext.role, msg.scontext.type,
                          msg.scontext.level))
        self.assertEqual("s1:c0-s2:c0.c2", msg.tcontext.level)
        self.assertEqual(("file", ["read"]), (msg.tclass, msg.accesses))

    def test_audit2allow_makes_the_rule(self):
        parser = self.parsed(SAMPLE.read_text())
        gen = policygen.PolicyGenerator()
        gen.add_access(parser.to_access())
        rules = "\n".join(str(r) for r in gen.get_module().children)
        self.assertIn("allow init_t etc_t:file read;", rules)

    def test_the_old_form_is_not_read(self):
        # mlte's TYPE:LEVEL contexts of before: sepolgen finds no denial.
        old = SAMPLE.read_text().replace("system_u:system_r:init_t:s0", "init_t:s0")
        self.assertEqual([], self.parsed(old).avc_msgs)


if __name__ == "__main__":
    unittest.main()

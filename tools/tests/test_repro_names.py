# SPDX-License-Identifier: BSD-3-Clause
"""papcoll sim reproduce NAME: each NAME is a module of papcoll_tools.repro and a folder (and report) of
docs/results; the former seedNNN names still run the same reproduction, with a one-line note."""
import contextlib
import importlib
import io
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools import cli  # noqa: E402
from papcoll_tools.repro import common  # noqa: E402


class ReproNamesTest(unittest.TestCase):
    def test_names_are_modules_and_folders(self):
        for name in cli.REPRODUCTIONS:
            mod = importlib.import_module(f"papcoll_tools.repro.{name}")
            self.assertTrue(callable(mod.main), name)
            out = common.default_out(name)
            self.assertEqual(os.path.basename(out), name)
            self.assertTrue(os.path.isdir(os.path.join(out, "sweep")), out)
            self.assertTrue(os.path.isfile(common.report_path(name, out)), name)
            self.assertEqual(common.command(name, out), f"papcoll sim reproduce {name}")
        self.assertTrue(set(cli.BUDGETED) <= set(cli.REPRODUCTIONS))

    def run_cli(self, argv):
        """cli.main(ARGV) with every reproduction's main replaced: (exit status, [(name, out, jobs, bench, extra)]
        of the calls, stderr)."""
        calls, err = [], io.StringIO()

        def recorder(name):
            def fake_main(out, jobs, bench, **extra):
                calls.append((name, out, jobs, bench, extra))
                return 0
            return fake_main

        with contextlib.ExitStack() as stack:
            for name in cli.REPRODUCTIONS:
                mod = importlib.import_module(f"papcoll_tools.repro.{name}")
                stack.enter_context(mock.patch.object(mod, "main", recorder(name)))
            stack.enter_context(contextlib.redirect_stderr(err))
            rc = cli.main(argv)
        return rc, calls, err.getvalue()

    def test_deprecated_names(self):
        self.assertEqual(set(cli.DEPRECATED_NAMES.values()), set(cli.REPRODUCTIONS))
        for old, new in cli.DEPRECATED_NAMES.items():
            extra = ["--budget=0"] if new in cli.BUDGETED else []
            rc, calls, err = self.run_cli(["sim", "reproduce", old, *extra])
            self.assertEqual(rc, 0)
            self.assertEqual([c[0] for c in calls], [new])
            self.assertEqual(err.count("\n"), 1, err)
            self.assertIn(f"{old} is deprecated, now named {new}", err)

    def test_names(self):
        rc, calls, err = self.run_cli(["sim", "reproduce", "parsons2015_alltoall", "--budget=0"])
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(calls, [("parsons2015_alltoall", None, 1, None, {"budget": 0.0})])
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            cli.main(["sim", "reproduce", "parsons2015-alltoall"])  # one style: underscores
        self.assertIn("invalid choice", err.getvalue())
        with contextlib.redirect_stdout(io.StringIO()) as out, self.assertRaises(SystemExit):
            cli.main(["sim", "reproduce", "--help"])
        for old in cli.DEPRECATED_NAMES:  # hidden
            self.assertNotIn(old, out.getvalue())
        for name in cli.REPRODUCTIONS:
            self.assertIn(name, out.getvalue().replace("\n", " "))


if __name__ == "__main__":
    unittest.main()

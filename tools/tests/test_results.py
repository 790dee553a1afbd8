# SPDX-License-Identifier: BSD-3-Clause
"""papcoll_tools.results reads papcoll-bench CSV and JSON, percentiles included, as numbers."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from papcoll_tools import results  # noqa: E402

FIELDS = ("coll,algo,size,pattern,p,ppn,reps,valid_reps,e_bar,e_bar_lo,e_bar_hi,g,after_last,e_root,root_bound,"
          "delta_bar,omega,if_avg,if_worst,bound,ratio,T,check,e_p50,e_p90,e_p99,after_p50,after_p90,after_p99")
ROW = "allreduce,ring,64,balanced,2,0,4,4,1e-5,9e-6,2e-5,3e-5,8e-6,nan,nan,0,0,0,0,4e-7,25,4e-7,Pass,1e-5,2e-5,3e-5,8e-6,9e-6,1e-5"


class ResultsTest(unittest.TestCase):
    def test_percentiles_are_numbers(self):
        names = FIELDS.split(",")
        with tempfile.TemporaryDirectory() as d:
            csv_path, json_path = os.path.join(d, "r.csv"), os.path.join(d, "r.json")
            with open(csv_path, "w") as f:
                f.write(f"#@coll=allreduce\n{FIELDS}\n{ROW}\n")
            doc = {"meta": {"coll": "allreduce"}, "results": [dict(zip(names, ROW.split(",")))]}
            with open(json_path, "w") as f:
                json.dump(doc, f)
            for path in (csv_path, json_path):
                meta, rows = results.read(path)
                self.assertEqual(meta["coll"], "allreduce")
                r = rows[0]
                self.assertEqual([r[k] for k in ("e_p50", "e_p90", "e_p99")], [1e-5, 2e-5, 3e-5])
                self.assertEqual([r[k] for k in ("after_p50", "after_p90", "after_p99")], [8e-6, 9e-6, 1e-5])
                self.assertEqual(r["after_p50"], r["after_last"])
                self.assertEqual(r["check"], "Pass")


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0
"""scripts/bound-report.py on synthetic runs: bound against whole is
paired by boot, and goals 1 and 2 of Documentation/large-folios.rst are
MET or MISSED as the runs say."""
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "bound-report.py")
COLUMNS = ("workload,threads,order,setup,rep,minflt,majflt,ns,pages,mapped,"
           "fa_calls,fa_mapped,fixed_ns,teardown_ns,distinct,unread,"
           "prog_minflt,prog_majflt").split(",")
FOLIO = 256	# pages a fault maps whole


def row(w, order, setup, rep, rnd, boot, cost=1.0, over=0):
    """One run: sparse maps a folio a fault whole, or its window bound
    (plus @over pages); seq's figure is scaled by @cost when bound."""
    faults = 527 if w.startswith("sparse") else 15872 // 64
    per = FOLIO if setup == "sweep" else min(FOLIO, 2 ** order) + over
    noise = 1 + rnd.gauss(0, 0.002) + 0.01 * boot	# a boot's offset
    ns = 1e7 * noise * (cost if setup == "bound" else 1)
    return dict(workload=w, threads=1, order=order, setup=setup, rep=rep,
                minflt=faults, majflt=0, ns=int(ns), pages=faults,
                mapped=faults * per, fa_calls=faults, fa_mapped=0,
                fixed_ns=0, teardown_ns=0, distinct=faults,
                unread=faults * (per - 1), prog_minflt=-1, prog_majflt=-1)


def report(tmp, **kw):
    rnd = random.Random(5)
    paths = []
    for b in range(3):
        rows = [row(w, o, s, rep, rnd, b, **kw)
                for rep in (1, 2, 3) for w in ("sparse@ext4-ra", "seq@ext4-ra")
                for o in (0, 4, 9) for s in ("sweep", "bound")]
        paths.append(os.path.join(tmp, f"runs-b{b}.csv"))
        with open(paths[-1], "w", newline="") as f:
            wr = csv.DictWriter(f, COLUMNS)
            wr.writeheader()
            wr.writerows(rows)
    out = subprocess.run([sys.executable, SCRIPT, "--out", tmp, "--meta",
                          "clock=icount", "--meta", "default_order=4",
                          ",".join(paths)],
                         capture_output=True, text=True, check=True).stdout
    with open(os.path.join(tmp, "bound.json")) as f:
        return out, json.load(f)


def goal(js, prefix):
    return next(g["met"] for g in js["goals"] if g["goal"].startswith(prefix))


def cell(js, w, o):
    return next(c for c in js["cells"] if c["workload"] == w and c["order"] == o)


class BoundReport(unittest.TestCase):
    def test_bound_maps_its_window(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, js = report(tmp)
        self.assertTrue(goal(js, "1 (sparse@ext4-ra)"), out)
        self.assertTrue(goal(js, "2 "), out)
        c = cell(js, "sparse@ext4-ra", 4)
        self.assertEqual(c["per_fault"]["bound"], [16, 16])
        self.assertEqual(c["per_fault"]["whole"], [FOLIO, FOLIO])
        self.assertLess(c["unread"]["diff"]["hi"], 0)
        # Order 9's window holds the folio: nothing to bound, and no goal.
        self.assertEqual(cell(js, "sparse@ext4-ra", 9)["unread"]["diff"]["est"], 0)
        self.assertIn("goal 1 (stride64k@ext4-ra): not run", out)

    def test_one_page_over_the_window_misses_goal_1(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, js = report(tmp, over=1)
        self.assertFalse(goal(js, "1 (sparse@ext4-ra)"), out)
        self.assertIn("MISSED", out)

    def test_seq_costing_5_percent_misses_goal_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, js = report(tmp, cost=1.05)
        self.assertFalse(goal(js, "2 "), out)
        # (bound - whole) / whole, paired by boot: the boots' offsets cancel.
        fig = cell(js, "seq@ext4-ra", 4)["figure"]
        self.assertAlmostEqual(fig["est"], 1.05, delta=0.005)
        self.assertLess(fig["lo"], 1.05)
        self.assertGreater(fig["hi"], 1.05)


if __name__ == "__main__":
    unittest.main()

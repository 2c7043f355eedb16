# SPDX-License-Identifier: GPL-2.0
"""scripts/bench/pressure-report.py's adaptive-policy goal (issue 29) and the
bound's (goal 4 of Documentation/large-folios.rst), on synthetic runs:
the counts against the default order's, or whole's, per boot, give 'no
more', 'MORE' or 'inconclusive', and the goal follows."""
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "pressure-report.py")
COLUMNS = ("workload,threads,order,setup,rep,minflt,majflt,ns,pages,mapped,"
           "fa_calls,fa_mapped,fixed_ns,teardown_ns,distinct,unread,"
           "prog_minflt,prog_majflt,hits,reclaimed_read,pgscan,pgsteal,"
           "pgactivate,pgdeactivate,workingset_refault_file,"
           "workingset_activate_file,slabs_scanned,allocstall,pgmajfault,"
           "memcg_pgscan,memcg_pgsteal,memcg_pgactivate,memcg_pgdeactivate,"
           "memcg_workingset_refault_file,memcg_workingset_activate_file,"
           "memcg_max,memcg_oom,psi_some_us,psi_full_us").split(",")


def row(w, order, setup, rep, rnd, refault=1600, activate=3700, faults=9000,
        columns=COLUMNS):
    v = dict.fromkeys(columns, 0)
    noise = 1 + rnd.gauss(0, 0.003)
    v.update(workload=w, threads=1, order=order, setup=setup, rep=rep,
             minflt=int(faults * noise), majflt=500, ns=int(8e8 * noise),
             pages=76800, fa_mapped=18000, hits=17900, unread=80,
             prog_minflt=-1, prog_majflt=-1,
             memcg_workingset_refault_file=int(refault * noise),
             memcg_pgactivate=int(activate * noise))
    if "pgunmap_file_old" in columns:
        v["pgunmap_file_old"] = 4321 * (order + 1)
    return [v[c] for c in columns]


def report(tmp, columns=COLUMNS, bound=None, folios=5, **adapt):
    """@bound: the bound's runs at order 4 beside the adaptive ones: "same"
    (each a copy of whole's run), or per boot the row's arguments
    (refault...); @folios, the files' largest folio order (None: none)."""
    rnd = random.Random(3)
    paths = []
    for b in range(3):
        rows = []
        for rep in range(1, 4):
            for w in ("hotcold", "hotcold@unlimited"):
                for o in (0, 4):
                    rows.append(row(w, o, "sweep", rep, rnd, columns=columns))
                if bound is not None:	# the placebo: whole's run again
                    rows.append([("placebo" if c == "setup" else v)
                                 for c, v in zip(columns, rows[-1])])
                if bound == "same":
                    rows.append([("bound" if c == "setup" else v)
                                 for c, v in zip(columns, rows[-2])])
                elif bound is not None:
                    rows.append(row(w, 4, "bound", rep, rnd, columns=columns,
                                    **bound[b]))
                rows.append(row(w, 4, "adaptive", rep, rnd, columns=columns,
                                **adapt))
        paths.append(os.path.join(tmp, f"runs-b{b}.csv"))
        with open(paths[-1], "w", newline="") as f:
            csv.writer(f).writerows([columns] + rows)
    meta = ["clock=icount", "default_order=4"] + (
        [f"folios {w}=0:64 {folios}:15000 (order:pages)"
         for w in ("hotcold", "hotcold@unlimited")] if folios is not None else [])
    out = subprocess.run([sys.executable, SCRIPT, "--out", tmp] +
                         [a for m in meta for a in ("--meta", m)] +
                         ["patched=" + ",".join(paths)],
                         capture_output=True, text=True, check=True).stdout
    with open(os.path.join(tmp, "results.json")) as f:
        js = json.load(f)
    return out, (js.get("bound") if bound is not None else js["adaptive"]["hotcold"])


class AdaptiveGoal(unittest.TestCase):
    def test_verdicts(self):
        for adapt, goal, refaults in (({}, True, "no more"),
                                      ({"refault": 2000}, False, "MORE"),
                                      ({"faults": 9900}, False, "no more")):
            with tempfile.TemporaryDirectory() as tmp:
                text, a = report(tmp, **adapt)
                self.assertEqual(a["goal"], goal, (adapt, a))
                self.assertEqual(a["refaults"]["verdict"], refaults)
                self.assertIn({True: "meets the goal",
                               False: "MISSES the goal"}[goal], text)
                # A 100-column terminal shows it: tables split by columns.
                self.assertLessEqual(max(map(len, text.splitlines())), 100)

    def test_unmapped_old(self):
        # patch 14's count, where the runs have it: order 4's 21,605
        with tempfile.TemporaryDirectory() as tmp:
            text, _ = report(tmp, columns=COLUMNS + ["pgunmap_file_old"])
            self.assertIn("unmapped old", text)
            self.assertIn("21,605", text)
        # runs from before it: the report still runs, without a figure
        with tempfile.TemporaryDirectory() as tmp:
            text, _ = report(tmp)
            self.assertNotIn("21,605", text)


class BoundGoal(unittest.TestCase):
    def check(self, goal, verdict, text, b, words):
        self.assertIs(b["goal"], goal, text)
        self.assertEqual(b["hotcold"]["4"].get("refaults", {}).get("verdict"),
                         verdict, text)
        self.assertIn(words, " ".join(text.split()))

    def test_verdicts(self):
        # Order 4 below the files' order-5 folios is judged: runs as
        # whole's are no more; 25% more refaults in every boot is MORE.
        with tempfile.TemporaryDirectory() as tmp:
            text, b = report(tmp, bound="same")
            self.check(True, "no more", text, b, "goal 4: MET")
            # the placebo, whole's runs again: the same test says no more
            self.assertIn("the same test on the placebo", text)
            self.assertEqual(b["placebo"]["hotcold"]["4"]["refaults"]["verdict"],
                             "no more")
        with tempfile.TemporaryDirectory() as tmp:
            self.check(False, "MORE", *report(tmp, bound=[{"refault": 2000}] * 3),
                       "goal 4: MISSED")
        # Refaults +-50% from boot to boot around whole's: inconclusive,
        # with the boots 80% power would need.
        with tempfile.TemporaryDirectory() as tmp:
            text, b = report(tmp, bound=[{"refault": r} for r in (2400, 800, 1600)])
            self.check(None, "inconclusive", text, b,
                       "goal 4: NOT SHOWN either way, so not met")
            self.assertGreater(b["hotcold"]["4"]["refaults"]["boots_for_80pct"], 100)
        # No order below the folios (order 4 ones), or no folio sizes:
        # nothing is judged, however the counts differ.
        for folios in (4, None):
            with tempfile.TemporaryDirectory() as tmp:
                self.check(None, None, *report(tmp, bound=[{"refault": 2000}] * 3,
                                               folios=folios), "goal 4: NOT JUDGED")


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The parts of bench-report.py (scripts/bench/benchreport/), one class
each: compare, costmodel, analysis, text, plots and results (fmt and
data: test_bench_report_data.py).  Each checks what its part computes on
inputs whose answer is known by hand or from the synthetic sweep's model
(test_bench_report.make_sweep: figure = 5e6 + 1800 * minflt + 550 *
fa_mapped, times noise).  The report end to end is test_bench_report.py's.
"""
import csv
import io
import json
import math
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

import numpy as np
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import benchstats as bs	# noqa: E402
from benchreport import data, compare, costmodel	# noqa: E402
from benchreport.analysis import Report	# noqa: E402
from benchreport.text import Text	# noqa: E402
from benchreport.plots import Plots	# noqa: E402
from benchreport import results	# noqa: E402
import test_bench_report as synth	# noqa: E402


def sweep_report(tmp, **kw):
    """A Report on a synthetic sweep written into tmp, analysed."""
    paths = synth.make_sweep(tmp, "t", **kw)
    rows, timed = data.load("patched", ",".join(paths))
    u = data.units("icount")
    rep = Report([("patched", rows, timed)], {"default_order": "4"}, u)
    rep.aa = False
    return rep, rep.analyse()


class Compare(unittest.TestCase):
    def cmp(self, est, p, lo=None, hi=None):
        lo, hi = lo or est * 0.99, hi or est * 1.01
        # se and df as a paired t over 3 boots would give this interval
        se = (math.log(hi) - math.log(lo)) / 2 / 4.303
        r = bs.Ratio(est, lo, hi, p, 0.95, logest=math.log(est), se=se,
                     df=2, n=3, method="paired t")
        return compare.Cmp(r)

    def test_holm_and_marks(self):
        fam = compare.Family()
        a, b, c = (fam.add(self.cmp(1.05, p), "q") for p in (0.01, 0.04, 0.03))
        small = fam.add(self.cmp(1.005, 0.001), "q")	# under the 1% effect
        # another question's comparisons do not enter q's adjustment
        other = [fam.add(self.cmp(1.05, 0.5), "other") for _ in range(10)]
        self.assertEqual(fam.holm(), 14)
        self.assertEqual(fam.sizes, {"q": 4, "other": 10})
        self.assertEqual(other[0].padj, 1.0)
        # Holm by hand: sorted 0.001, 0.01, 0.03, 0.04 times 4, 3, 2, 1,
        # each at least the one before.
        self.assertAlmostEqual(small.padj, 0.004)
        self.assertAlmostEqual(a.padj, 0.03)
        self.assertAlmostEqual(c.padj, 0.06)
        self.assertAlmostEqual(b.padj, 0.06)
        self.assertEqual([x.mark() for x in (a, b, c, small)],
                         ["*", "~", "~", "~"])

    def test_power(self):
        # the normal approximation of a paired t with many boots:
        # 1.96 + 0.84 se for 80% power
        sd, n = 0.01, 200
        eff = math.expm1((1.959964 + 0.841621) * sd / math.sqrt(n))
        self.assertAlmostEqual(bs.power_paired(eff, sd, n), 0.80, delta=0.01)
        # 3 boots at a 1% sd, 10 in the family: a 5% change is seldom marked
        self.assertLess(bs.power_paired(0.05, 0.01, 3, 10), 0.5)
        self.assertGreater(bs.power_paired(0.05, 0.01, 3, 1),
                           bs.power_paired(0.05, 0.01, 3, 10))
        # and by simulation: how often the paired t rejects at alpha / m
        rng = np.random.default_rng(4)
        hits = sum(bs.paired_ratio(np.exp(rng.normal(math.log(1.03), 0.01, 5)),
                                   np.ones(5)).p < 0.05 / 4 for _ in range(2000))
        self.assertAlmostEqual(hits / 2000, bs.power_paired(0.03, 0.01, 5, 4),
                               delta=0.04)
        # with the 1% a '*' needs: 3 boots, sd 0.05%, a family of 9, a
        # true 1% change is marked about half the time, not always
        ms = [bs.paired_ratio(np.exp(rng.normal(math.log(1.01), 0.0005, 3)),
                              np.ones(3)) for _ in range(4000)]
        seen = np.mean([r.p < 0.05 / 9 and r.est >= 1.01 for r in ms])
        self.assertAlmostEqual(bs.power_paired(0.01, 0.0005, 3, 9, 0.05, 0.01),
                               seen, delta=0.04)
        self.assertGreater(bs.power_paired(0.01, 0.0005, 3, 9), 0.95)
        # no crash where scipy's noncentral t aborts (nc ~ 1e5)
        self.assertAlmostEqual(bs.power_paired(0.05, 1e-6, 3, 1), 1.0)

    def test_pct_text(self):
        # the summary's cell: %chg, then its interval in % (lo before hi)
        c = self.cmp(0.9778, 0.001, 0.9774, 0.9785)
        c.padj = 0.001
        self.assertEqual(c.pct_text(), "-2.22% [-2.26,-2.15] *")
        one = compare.Cmp(bs.Ratio(1.02, float("nan"), float("nan"), None,
                                   0.95))
        self.assertEqual(one.pct_text(), "+2.00% ~")

    def test_verdicts(self):
        def line(est, lo, hi, p, setup="mod-idle"):
            c = self.cmp(est, p, lo, hi)
            c.padj = p
            return {"boot": c, "tost": c.tost(), "setup": setup}
        # The 90% interval of these 95% ones is narrower, inside it.
        self.assertEqual(compare.verdict(line(1.001, 0.995, 1.007, 0.5)),
                         "equivalent within +-1%")
        self.assertEqual(compare.verdict(line(1.05, 1.03, 1.07, 0.001)),
                         "differs")
        self.assertEqual(compare.verdict(line(0.99, 0.97, 1.005, 0.2)),
                         "inconclusive, costs at most +1%")
        self.assertEqual(compare.verdict(line(1.0, 0.9, 1.1, 0.9)),
                         "inconclusive")
        self.assertEqual(compare.verdict(line(0.99, 0.97, 1.005, 0.2, "ab")),
                         "inconclusive")


class CostModel(unittest.TestCase):
    def test_recovers_the_sweeps_costs(self):
        tmp = tempfile.mkdtemp()
        try:
            rep, n = sweep_report(tmp)
        finally:
            shutil.rmtree(tmp)
        pooled = n["pooled"][0]
        # make_sweep's model: 1800 a fault, 550 a page mapped ahead.
        for name, true in (("b", 1800), ("c", 550)):
            est, lo, hi = pooled[name]
            self.assertLessEqual(lo, true, name)
            self.assertGreaterEqual(hi, true, name)
            # a t interval over 3 boots (t = 4.3): within 15%
            self.assertLess(hi - lo, 0.15 * true, name)
        # a residual per cell (boot, workload, order), centred on the fit
        resid = [r for _, _, r in pooled["_resid"]]
        self.assertEqual(len(resid), pooled["cells"])
        self.assertEqual(pooled["cells"] * 3, pooled["runs"])
        self.assertLess(abs(sum(resid) / len(resid)), 0.005)
        seq = next(f for f in n["fits"] if f["workload"] == "seq")
        self.assertIn("not separable", seq["note"])	# fa = P - minflt
        text = costmodel.cost_text(pooled, rep.u)
        self.assertIn("insn per fault", text)
        self.assertIn("insn per page", text)


    def test_a_dear_run_moves_nothing(self):
        # bench v3's runs 1 and 212 of every boot: +21% from a guest
        # event.  Plant it on one run of a high-fault cell in every boot:
        # the cells' medians take it out; a fit over runs (the planted
        # bug, cells() as the identity) is moved by it.
        tmp = tempfile.mkdtemp()
        try:
            rep, _ = sweep_report(tmp)
        finally:
            shutil.rmtree(tmp)
        clean = [r for r in rep.sweep if r["workload"] in ("seq", "sparse")
                 and r["threads"] == 1]
        rows = [dict(r) for r in clean]
        for r in rows:
            if r["workload"] == "seq" and r["order"] == 0 and r["rep"] == 1:
                r["ns"] = int(r["ns"] * 1.21)

        def c(rs):
            return costmodel.cost_model(rep.st, "patched", rs, "t")["b"][0]
        self.assertLess(abs(c(rows) / c(clean) - 1), 0.005)	# 0.0015
        with mock.patch.object(costmodel, "cells", lambda rs: rs):
            self.assertGreater(abs(c(rows) / c(clean) - 1), 0.02)


class Analysis(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.rep, cls.n = sweep_report(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def rec(self, w):
        return next(r for r in self.n["recs"] if r["workload"] == w)

    def test_best_orders_follow_the_model(self):
        # Fewer faults win for seq; sparse's faults never change and
        # every page mapped ahead costs, so order 0 wins.
        self.assertEqual(self.rec("seq")["best"], 6)
        self.assertEqual(self.rec("sparse")["best"], 0)

    def test_tables_hold_every_order(self):
        tb = self.n["tables"][("seq", 1)]
        self.assertEqual(sorted(tb["cells"]), list(range(7)))
        self.assertEqual(tb["cells"][4]["minflt"], synth.P // 16)

    def test_a_moving_control_flags_every_mark(self):
        tmp = tempfile.mkdtemp()
        try:
            _, n = sweep_report(tmp, effect={("anon", o): 1.05
                                             for o in range(1, 7)},
                                 placebo=None)	# bench v3's anon control
            self.assertEqual(n["ctl"]["verdict"], "moves")
            self.assertTrue(n["recs"][0]["to_default"].mark().endswith("!"))
        finally:
            shutil.rmtree(tmp)
        again = os.path.join(self.tmp, "again")	# the next report:
        os.makedirs(again)
        _, n = sweep_report(again)
        self.assertFalse(n["recs"][0]["to_default"].mark().endswith("!"))

    def test_changing_pattern_goal(self):
        # issue 29's goal where the pattern changes within one mapping:
        # adaptive below the best fixed order (here 4), interval and all
        import csv
        import random
        rnd = random.Random(7)
        for factor, want, boots in ((0.9, True, 3), (1.1, False, 3),
                                    (1.0, None, 3), (0.9, "one", 1)):
            tmp = tempfile.mkdtemp()
            try:
                paths = []
                for b in range(1, boots + 1):
                    rows = []
                    for rep in range(1, 4):
                        for o in list(range(7)) + ["adaptive"]:
                            fig = 1e8 * (factor if o == "adaptive" else
                                         1 + 0.02 * abs(o - 4))
                            fig *= 1 + rnd.gauss(0, 0.001)
                            rows.append(["seq-then-sparse", 1,
                                         4 if o == "adaptive" else o,
                                         "adaptive" if o == "adaptive" else
                                         "sweep", rep, 100, 0, int(fig), 8448,
                                         8448, -1, -1, 70000, 0, 8448, 0])
                    paths.append(os.path.join(tmp, f"runs-c-b{b}.csv"))
                    with open(paths[-1], "w", newline="") as f:
                        csv.writer(f).writerows([synth.COLUMNS] + rows)
                rows, timed = data.load("patched", ",".join(paths))
                rep = Report([("patched", rows, timed)],
                             {"default_order": "4"}, data.units("icount"))
                rep.aa = False
                a = rep.analyse()["adapt"][0]
                if want == "one":	# reps are no replicate for a goal
                    self.assertNotIn("below_best", a)
                    self.assertEqual(a["best_verdict"], "not judged (one boot)")
                    continue
                self.assertEqual((a["best"], a["below_best"]), (4, want))
                self.assertIn({True: "meets the goal", False: "MISSES the goal",
                               None: "inconclusive against the fixed orders"}[want],
                              "\n".join(Text(rep).report(rep.analyse())))
            finally:
                shutil.rmtree(tmp)

    def test_crosscheck_and_control(self):
        self.assertEqual(self.n["bad"], [])
        self.assertNotEqual(self.n["ctl"]["verdict"], "moves")


class TextParts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.rep, cls.n = sweep_report(cls.tmp)
        cls.out = Text(cls.rep).report(cls.n)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_prose_fits_100_columns(self):
        # Every paragraph is para()'s; only data lines may be longer.
        start = self.out.index("Statistics (scripts/bench/benchstats.py):")
        for line in self.out[start:start + 12]:
            self.assertLessEqual(len(line), 100, line)

    def test_summary_fits_100_columns(self):
        summary = self.out[self.out.index("Summary"):]
        self.assertGreater(len(summary), 10)
        for line in summary:
            self.assertLessEqual(len(line), 100, line)

    def test_overview_first(self):
        # The title, the run's settings, then the overview's table: one
        # row per workload and thread count, a ratio per order above 0.
        at = next(i for i, x in enumerate(self.out)
                  if x.startswith("At a glance"))
        self.assertTrue(all(x.startswith("  ") for x in self.out[1:at]))
        rows = self.out[at:self.out.index("", at)]
        seq = next(x.split() for x in rows if x.startswith("  seq "))
        # best 6, rec 6, then orders 1-6: the model's seq ratio falls
        self.assertEqual(seq[1:3], ["6", "6"])
        self.assertTrue(all(x.endswith("*") for x in seq[3:]))	# all shown
        ratios = [float(x.rstrip("*~")) for x in seq[3:]]
        self.assertEqual(len(ratios), 6)
        self.assertEqual(ratios, sorted(ratios, reverse=True))
        sparse = next(x.split() for x in rows if x.startswith("  sparse "))
        self.assertGreater(float(sparse[-1].rstrip("*~")), 3)	# 64 pages a fault
        anon = next(x.split() for x in rows if x.startswith("  anon "))
        self.assertEqual(anon[1:3], ["-", "-"])	# the control: no pick

    def test_cross_line(self):
        out = []
        said = Text(self.rep).cross_line([], [], out)
        self.assertTrue(said.startswith("not run"))
        out = []
        said = Text(self.rep).cross_line(self.n["done"], ["run X: bad"], out)
        self.assertIn("DISAGREE", said)
        self.assertEqual(out[1], "  run X: bad")


class PlotsPart(unittest.TestCase):
    def test_dat_has_each_order_and_thread_count(self):
        tmp = tempfile.mkdtemp()
        try:
            rep, n = sweep_report(tmp)
            png = Plots(rep).plot("mmap-pread-seq", n["tables"], tmp)
            with open(os.path.join(tmp, "mmap-pread-seq.dat")) as f:
                blocks = [b for b in f.read().split("\n\n\n") if b.strip()]
            self.assertEqual(len(blocks), 2)	# 1 and 2 tasks
            first = [x.split() for x in blocks[0].strip().split("\n")]
            self.assertEqual([int(x[0]) for x in first], list(range(7)))
            self.assertEqual(int(first[4][1]), synth.P // 16)
            if shutil.which("gnuplot"):
                self.assertTrue(png and os.path.getsize(png) > 0)
        finally:
            shutil.rmtree(tmp)


    def test_heatmap_and_strips_data(self):
        tmp = tempfile.mkdtemp()
        try:
            rep, n = sweep_report(tmp)
            plots = Plots(rep)
            heat = plots.heatmap(n["tables"], tmp)
            strips = plots.strips(tmp)
            with open(os.path.join(tmp, "overview.dat")) as f:
                cells = [x.split() for x in f if x.strip()]
            with open(os.path.join(tmp, "strips.dat")) as f:
                blocks = [b for b in f.read().split("\n\n\n") if b.strip()]
            if shutil.which("gnuplot"):
                self.assertTrue(heat and os.path.getsize(heat) > 0)
                self.assertTrue(strips and os.path.getsize(strips) > 0)
        finally:
            shutil.rmtree(tmp)
        rows = plots.rows_of()
        self.assertEqual(len(cells), len(rows) * 6)	# orders 1-6
        # seq (row 0) at order 4 (column 3): log2 of its printed ratio
        seq4 = next(c for c in cells if c[:2] == ["3", "0"])
        self.assertAlmostEqual(float(seq4[2]),
                               math.log2(float(seq4[3].strip('"*~'))), 2)
        self.assertLess(float(seq4[2]), 0)
        # every run once, in its panel, its boot as the colour
        self.assertEqual(len(blocks), len(rows))
        runs = [x.split() for x in blocks[0].strip().split("\n")]
        self.assertEqual(len(runs), 3 * 3 * 7)	# boots x reps x orders
        self.assertEqual({r[2] for r in runs}, {"1", "2", "3"})


class Results(unittest.TestCase):
    def test_files(self):
        tmp = tempfile.mkdtemp()
        try:
            rep, n = sweep_report(tmp)
            out = Text(rep).report(n)
            results.write_results(tmp, rep, n, out, [], None)
            with open(os.path.join(tmp, "results.json")) as f:
                doc = json.load(f)
            with open(os.path.join(tmp, "results.csv")) as f:
                rows = list(csv.DictReader(f))
        finally:
            shutil.rmtree(tmp)
        # every run of every setup (the sweep's and the placebo arm's)
        self.assertEqual(len(rows), sum(len(rs) for _, rs, _ in rep.sets))
        self.assertGreater(len(rows), len(rep.sweep))
        self.assertIn("icount_insn", rows[0])	# the figure named by unit
        self.assertEqual(len(doc["runs"]), len(rows))
        self.assertEqual(doc["report"], out)
        self.assertEqual(doc["units"]["figure"], "guest instructions")
        self.assertNotIn("_resid", json.dumps(doc["summary"]))	# per run
        self.assertEqual(doc["summary"]["recommendation"]["sparse"]["best"], 0)

    def test_json_has_no_nan(self):
        r = bs.none(0.95)
        buf = io.StringIO()
        with redirect_stdout(buf):
            print(json.dumps(compare.Cmp(r), default=results.jsonable))
        self.assertNotIn("NaN", buf.getvalue())


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench-report.py end to end on synthetic sweeps (make bench-stats).

make_sweep() writes one CSV per boot as scripts/bench/guest/sweep.sh
prints them: every workload, thread count and order, each repetition's orders
shuffled, the counters consistent with Rss (the cross-check), the figure
a cost model times a boot offset, a boot x order term and run noise.
The tests run the report on them and check what it says: every mark
agrees with its interval, a moving control flags every verdict, a
borderline recommendation is marked unstable, the A/A prints its
calibration, CLOCK=wall names the accelerator, the new columns show, and
bench-shape.py still reads results.csv.

    test_bench_report.py --make DIR [--aa]	# just write a sweep into DIR
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..")
REPORT = os.path.join(BENCH, "bench-report.py")
SHAPE = os.path.join(BENCH, "bench-shape.py")
COLUMNS = ("workload,threads,order,setup,rep,minflt,majflt,ns,pages,mapped,"
           "fa_calls,fa_mapped,fixed_ns,teardown_ns,distinct,unread").split(",")
P = 3840	# pages of the file
WORKLOADS = (("seq", 1), ("rand", 1), ("sparse", 1), ("mmap-pread-seq", 1),
             ("mmap-pread-seq", 2), ("mmap-pread-seq@huge", 1), ("anon", 1),
             ("exec", 1))


def counts(w, t, o):
    """minflt, pages, mapped, fa_calls, fa_mapped, distinct, unread."""
    win = 2 ** o
    if w == "sparse":
        calls = 540 if o else 0
        return 540, 540, 540 * win, calls, 540 * (win - 1), 540, 540 * (win - 1)
    if w in ("anon", "mmap-pread-seq@huge"):
        m = P if w == "anon" else P // 512
        return m, P, P * t, 0, 0, -1 if w == "anon" else P, -1
    if w == "exec":
        m = int(1000 / 2 ** (o / 2))
        # a program's 3,000 pages, at most a window's worth a fault
        return m, 20, 0, m if o else 0, min(3000 - m, m * (win - 1)), -1, -1
    m = t * P // win
    distinct = int(0.63 * P) if w == "rand" else P
    return (m, P, t * P, m if o else 0, (t * P - m) if o else 0,
            distinct * t, (P - distinct) * t)


def make_sweep(out, name, boots=3, reps=3, orders=range(7), seed=1,
               inter=0.002, run=0.001, boot_sd=0.02, effect=None,
               extra=False, placebo=1.0, cap=4, teardown=None):
    """Write out/runs-<name>-b<N>.csv, one per boot; returns their paths.
    effect: {(workload, order): factor} on top of the cost model.  extra:
    also the adaptive policy's runs (as order 5's, at default order 4)
    and the module-cost runs of seq (at order 4, mod-256 1.5% dearer;
    mod-adaptive at order 5's faults, its figure with them).  placebo:
    the factor of the placebo arm's runs (order 4 again, sweep.sh's setup
    placebo), None for none (bench v3's runs).  teardown: {(workload,
    order): factor} on the teardown alone (7% of the figure), which the
    figure includes."""
    rng = np.random.default_rng(seed)
    own = np.random.default_rng(seed + 1000)
    prng = np.random.default_rng(seed + 2000)	# the other rows' draws stay
    paths = []
    for b in range(1, boots + 1):
        rows = []
        boff = rng.normal(0, boot_sd)
        for w, t in WORKLOADS:
            bo = {o: rng.normal(0, inter) for o in orders}
            bo_p = prng.normal(0, inter)	# the placebo cell's own term
            for rep in range(1, reps + 1):
                if placebo is not None and 4 in orders and w != "anon":
                    m, pages, mapped, calls, fa, dist, unread = counts(w, t, 4)
                    fig = 20e6 if w == "mmap-pread-seq@huge" else 5e6 + 1800 * m + 550 * fa
                    f = placebo.get(w, 1.0) if isinstance(placebo, dict) else placebo
                    fig *= f * math.exp(boff + bo_p + prng.normal(0, run))
                    rows.append([w, t, 4, "placebo", rep, m, 0, int(fig), pages,
                                 mapped, calls, fa, 70000, int(fig * 0.07),
                                 dist, unread])
                for o in rng.permutation(list(orders)):
                    o = int(o)
                    m, pages, mapped, calls, fa, dist, unread = counts(w, t, o)
                    fig = 5e6 + 1800 * m + 550 * fa
                    if w == "anon":
                        fig = 30e6
                    if w == "mmap-pread-seq@huge":
                        fig = 20e6
                    fig *= (effect or {}).get((w, o), 1.0)
                    fig *= math.exp(boff + bo[o] + rng.normal(0, run))
                    td = fig * 0.07
                    tf = (teardown or {}).get((w, o), 1.0)
                    fig, td = fig + td * (tf - 1), td * tf
                    rows.append([w, t, o, "sweep", rep, m, 0, int(fig), pages,
                                 mapped, calls, fa, 70000, int(td),
                                 dist, unread])
                    # The baselines: order 0's runs and order 6's, as
                    # copies (no draw: the other rows stay as they were).
                    if extra and o in (0, 6):
                        rows.append([w, t, cap, "madvise" if o == 0 else "ramp"]
                                    + rows[-1][4:])
                        continue
                    if not extra or o != 5:
                        continue
                    rows.append([w, t, cap, "adaptive"] + rows[-1][4:])
                    if w != "seq":
                        continue
                    for setup, k in (("mod-off", 1), ("mod-idle", 1.0005),
                                     ("mod-256", 1.015), ("mod-adaptive", 1)):
                        m, pages, mapped, calls, fa, dist, unread = counts(
                            w, t, 5 if setup == "mod-adaptive" else 4)
                        # its own generator: the other rows' draws stay
                        g = own if setup == "mod-adaptive" else rng
                        f4 = (5e6 + 1800 * m + 550 * fa) * k * math.exp(
                            boff + g.normal(0, run))
                        rows.append([w, t, 4, setup, rep, m, 0, int(f4), pages,
                                     mapped, calls, fa, 70000, int(f4 * 0.07),
                                     dist, unread])
        path = os.path.join(out, f"runs-{name}-b{b}.csv")
        with open(path, "w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(COLUMNS)
            wr.writerows(rows)
        paths.append(path)
    return paths


def report(out, sets, *extra, meta=("clock=icount", "qemu=tcg -icount shift=0,sleep=off")):
    cmd = [sys.executable, REPORT, "--out", out, "--meta", "default_order=4"]
    for m in meta:
        cmd += ["--meta", m]
    cmd += list(extra) + [f"{label}={','.join(p)}" for label, p in sets]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise AssertionError(f"bench-report failed:\n{r.stderr}")
    with open(os.path.join(out, "results.json")) as f:
        return r.stdout, json.load(f)


def cmps(doc):
    """Every ratio of results.json's summary with a mark."""
    found = []

    def walk(x):
        if isinstance(x, dict):
            if "mark" in x and "lo" in x:
                found.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(doc["summary"])
    return found


def table_rows(text, name):
    """Row `name` of each workload's table, its values from all the
    table's blocks of orders joined (a table is its title line, which
    ends '... per order)', and blocks until the next unindented line
    that is neither a row nor blank)."""
    tables, cur = [], None
    for ln in text.splitlines():
        if not ln[:1].isspace() and "per order" in ln:
            cur = []
            tables.append(cur)
        elif cur is not None and ln.startswith(name):
            cur += ln[len(name):].split()
    return [t for t in tables if t]


class Report(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_plain_sweep(self):
        text, doc = report(self.dir, [("patched", make_sweep(self.dir, "p"))])
        self.assertIn("Statistics (scripts/bench/benchstats.py)", text)
        cross = text.split("Cross-check")[1].split("\n\n")[0]
        self.assertRegex(" ".join(cross.split()), r"\): all [\d,]+ runs")
        # Every line fits a 100-column terminal, the tables in blocks.
        self.assertLessEqual(max(map(len, text.splitlines())), 100)
        self.assertNotIn("CONTROL MOVED", text)
        self.assertNotIn("PLACEBO FAILED", text)
        self.assertRegex(text, r"within its question's family \(\d+ families")
        self.assertIn("Power to mark a change of 1%, 2% and 5%", text)
        # seq: -1800 insn per fault saved dwarfs the noise: marked
        self.assertRegex(text, r"seq +\d+ +\d+ .*\*")
        for c in cmps(doc):
            if c["mark"].startswith("*"):	# '*' has an interval without 1
                self.assertFalse(c["lo"] <= 1 <= c["hi"], c)
                self.assertLess(c["p"], 0.05)
        rec = doc["summary"]["recommendation"]["seq"]
        self.assertIn(rec["best_stable"], (True, False))
        # margins per fault: +-1% of seq's figure at order 4 per fault
        m = [x for x in doc["summary"]["margins_per_fault"]
             if x["workload"] == "seq"][0]
        self.assertEqual(m["order"], 4)
        self.assertAlmostEqual(m["per_fault"], m["figure"] * 0.01 / (P // 16))
        self.assertIn("Margins per fault", text)
        # the new columns: distinct and unread rows, pages per page read
        self.assertIn("distinct pages read", text)
        self.assertIn("unread (mapped, not read)", text)
        # pages per fault: sparse maps its window, a PMD-mapped huge
        # file a page table's worth (as counts() makes them)
        per = table_rows(text, "  per fault, median (max)")
        self.assertIn([x for o in range(7)
                       for x in (f"{2 ** o:.2f}", f"({2 ** o:.2f})")], per)
        huge = f"{P / (P // 512):.2f}"
        self.assertIn([huge, f"({huge})"] * 7, per)
        shape = subprocess.run([sys.executable, SHAPE,
                                os.path.join(self.dir, "results.csv")],
                               capture_output=True, text=True)
        self.assertEqual(shape.returncode, 0, shape.stdout)

    def test_deterministic(self):
        p = make_sweep(self.dir, "p")
        a, _ = report(self.dir, [("patched", p)])
        b, _ = report(self.dir, [("patched", p)])
        self.assertEqual(a, b)

    def test_placebo_fails_flags_every_verdict(self):
        # the default order's second arm 3% dearer in every cell
        p = make_sweep(self.dir, "p", placebo=1.03)
        text, doc = report(self.dir, [("patched", p)])
        self.assertIn("PLACEBO FAILED", text.split("Statistics")[0])
        self.assertEqual(doc["summary"]["control"]["kind"], "placebo")
        self.assertEqual(doc["summary"]["control"]["verdict"], "moves")
        self.assertTrue(all(c["mark"].endswith("!") for c in cmps(doc)))

    def test_placebo_fails_on_one_cell(self):
        # 5% in one cell, none elsewhere: the mean over cells hides it,
        # Holm over the cells does not
        p = make_sweep(self.dir, "p", placebo={"sparse": 1.05})
        text, doc = report(self.dir, [("patched", p)])
        ctl = doc["summary"]["control"]
        self.assertEqual(ctl["verdict"], "moves", ctl)
        self.assertIn("1 cell(s) shown to differ", text)

    def test_placebo_holds(self):
        # no difference, a 0.2% boot x cell term: shown within +-1%
        text, doc = report(self.dir, [("patched", make_sweep(self.dir, "p"))])
        ctl = doc["summary"]["control"]
        self.assertEqual((ctl["kind"], ctl["verdict"]), ("placebo", "holds"), ctl)
        self.assertEqual(ctl["cells"], len(WORKLOADS) - 1)	# not anon
        self.assertIn("Control: placebo holds", text)

    def test_placebo_noise_is_not_a_move(self):
        # 0.5% with a 2% boot x cell term: neither shown
        p = make_sweep(self.dir, "p", inter=0.02, placebo=1.005)
        text, doc = report(self.dir, [("patched", p)])
        self.assertEqual(doc["summary"]["control"]["verdict"], "inconclusive")
        self.assertNotIn("PLACEBO FAILED", text)

    def test_control_moves_flags_every_verdict(self):
        # bench v3's runs, no placebo arm: the anon control
        p = make_sweep(self.dir, "p", effect={("anon", 3): 1.03}, placebo=None)
        text, doc = report(self.dir, [("patched", p)])
        self.assertIn("CONTROL MOVED", text.split("Statistics")[0])
        self.assertTrue(doc["summary"]["control_moved"])
        summary = text.split("Summary\n")[1]
        rows = summary.split("rec / default")[1].split("\n  Unstable")[0]
        for line in rows.split("Pages mapped")[0].strip().split("\n")[1:]:
            self.assertIn("!", line)	# every row's verdicts flagged
        self.assertTrue(all(c["mark"].endswith("!") for c in cmps(doc)))

    def test_control_noise_is_not_a_move(self):
        # a 1.5% point estimate with a 2% boot x order term: its interval
        # spans +-1%, which shows nothing; no flag, not "holds" either
        p = make_sweep(self.dir, "p", inter=0.02, effect={("anon", 3): 1.015},
                       placebo=None)
        text, doc = report(self.dir, [("patched", p)])
        ctl = doc["summary"]["control"]
        self.assertEqual(ctl["verdict"], "inconclusive", ctl)
        self.assertNotIn("CONTROL MOVED", text)
        self.assertFalse(doc["summary"]["control_moved"])

    def test_unstable_recommendation(self):
        # order 5 is 0.66% to 0.85% above the best (6): its interval's
        # top sits on 1.01, so a rerun may well pick another order
        p = make_sweep(self.dir, "p", inter=0.0, run=0.0002)
        for i, path in enumerate(p):
            with open(path) as f:
                rows = list(csv.reader(f))
            for r in rows[1:]:
                if r[0] == "seq":
                    o, ns = int(r[2]), int(r[7])
                    # make 6 the best, 5 just above it (the cost model has order 5 1.0104 times order 6)
                    f6 = {6: 0.95,
                          5: 0.95 / 1.0104 * (1.0066, 1.0077, 1.0085)[i]}
                    r[7] = str(int(ns * f6.get(o, 1.0)))
            with open(path, "w", newline="") as f:
                csv.writer(f).writerows(rows)
        text, doc = report(self.dir, [("patched", p)])
        rec = doc["summary"]["recommendation"]["seq"]
        self.assertEqual(rec["best"], 6)
        self.assertEqual(rec["recommended"], 6)
        self.assertFalse(rec["rec_stable"], rec)
        self.assertIn(5, [rec["recommended"]] + rec["rec_moves"])
        self.assertIn("UNSTABLE", text)
        self.assertRegex(text, r"\n  seq +6 +6\? ")
        self.assertRegex(text, r"Unstable \(the orders simulated reruns pick "
                         r"instead, and how often\): seq rec 6 -> 5 \(\d+%\)")

    def test_aa_calibration(self):
        a = make_sweep(self.dir, "A", seed=1)
        b = make_sweep(self.dir, "B", seed=2)
        text, doc = report(self.dir, [("A", a), ("B", b)], "--aa")
        head = text.split("Figure:")[0]
        self.assertIn("A/A calibration", head)
        self.assertIn("Clopper-Pearson", head)
        self.assertIn("Split halves, best order", head)
        self.assertRegex(head, r"the stability rule expected \d+\.\d to differ")
        pl = doc["summary"]["aa_calibration"]["placebo_cells_unadjusted"]
        self.assertEqual(pl["n"], 2 * (len(WORKLOADS) - 1))	# both labels
        self.assertEqual(doc["summary"]["aa_calibration"]["placebo_overall"]["n"], 2)
        self.assertIn("The placebo arm, both labels", head)
        # pooled with an earlier A/A (this one again): twice the rows
        again = os.path.join(self.dir, "again")
        os.mkdir(again)
        _, doc2 = report(again, [("A", a), ("B", b)], "--aa", "--pool", self.dir)
        pooled = doc2["summary"]["aa_calibration"]["pooled"]["ab_unadjusted"]
        one = doc["summary"]["aa_calibration"]["ab_unadjusted"]
        self.assertEqual((pooled["k"], pooled["n"], pooled["runs"]),
                         (2 * one["k"], 2 * one["n"], 2))
        for row in doc["summary"]["aa_calibration"]["split"]["recommended"]:
            self.assertTrue(all(0 <= f <= 1 for f in row["flip"]), row)
        cal = doc["summary"]["aa_calibration"]
        self.assertEqual(cal["ab_rows"], len(WORKLOADS) * 7)
        self.assertLessEqual(cal["ab_unadjusted"]["k"], cal["ab_unadjusted"]["n"])
        self.assertIn("A/B A/B", text)

    def test_ab_phases(self):
        # the same runs but a teardown 10% dearer on base: the A/B's
        # loop and teardown ratios say where the difference lies
        a = make_sweep(self.dir, "a", seed=3, orders=(4,))
        b = make_sweep(self.dir, "b", seed=3, orders=(4,),
                       teardown={("seq", 4): 1.10})
        text, doc = report(self.dir, [("patched", a), ("base", b)])
        ab = {(x["workload"], x["threads"]): x for x in doc["summary"]["ab"]}
        ph = ab[("seq", 1)]["phases"]
        self.assertAlmostEqual(ph["loop"]["ratio"], 1.0, delta=1e-6)
        self.assertAlmostEqual(ph["teardown"]["ratio"], 1 / 1.10, delta=1e-4)
        self.assertTrue(ph["teardown"]["lo"] < 1 / 1.10 < ph["teardown"]["hi"] < 1)
        self.assertAlmostEqual(ab[("rand", 1)]["phases"]["teardown"]["ratio"],
                               1.0, delta=1e-6)
        self.assertRegex(" ".join(text.split()),
                         r"loop 1\.0000 \[[0-9.]+, [0-9.]+\]; teardown 0\.9091 \[")

    def test_ab_module_adaptive(self):
        # an A/B of two different kernels, with the module cost and the
        # adaptive policy: the sections are there and say something
        a = make_sweep(self.dir, "a", seed=3, extra=True)
        b = make_sweep(self.dir, "b", seed=4, orders=(4,),
                       effect={("seq", 4): 1.05})
        text, doc = report(self.dir, [("patched", a), ("base", b)])
        self.assertIn("Module cost at order 4", text)
        self.assertIn("Adaptive: the adaptive policy against the fixed", text)
        self.assertIn("A/B: patched/base", text)
        ab = {(x["workload"], x["threads"]): x for x in doc["summary"]["ab"]}
        self.assertEqual(len(ab), len(WORKLOADS))
        # seq is 5% cheaper on patched, far beyond the boots' 2% spread
        self.assertLess(ab[("seq", 1)]["ratio"]["ratio"], 0.97)
        mods = {x["setup"]: x for x in doc["summary"]["module_cost"]}
        self.assertEqual(set(mods), {"mod-idle", "mod-256", "mod-adaptive"})
        self.assertGreater(mods["mod-256"]["ratio"]["ratio"], 1.01)
        # the adaptive setup's windows: order 5's faults, half order 4's,
        # and a figure that is cheaper with them
        flt = mods["mod-adaptive"]["minflt"]
        self.assertEqual(flt["setup"] * 2, flt["mod-off"])
        self.assertLess(mods["mod-adaptive"]["ratio"]["ratio"], 0.99)
        self.assertIn(f"minor faults {flt['setup']:,.0f} (not loaded "
                      f"{flt['mod-off']:,.0f})", text)
        self.assertTrue(doc["summary"]["adaptive"])
        self.assertIn("pages/read", text)
        # the baselines: a line each, beside the policy's, for every
        # workload, with their own columns
        got = {(x["workload"], x["policy"]) for x in doc["summary"]["adaptive"]}
        self.assertEqual(got, {(w, p) for w, _ in WORKLOADS
                               for p in ("adaptive", "madvise", "ramp")})
        self.assertIn("Columns madvise and ramp", text)
        seq = {x["policy"]: x for x in doc["summary"]["adaptive"]
               if x["workload"] == "seq"}
        # madvise ran as order 0 did and ramp as order 6: their ratios to
        # the best order are those orders' (seq is best at the top, 6)
        self.assertGreater(seq["madvise"]["vs_best"]["ratio"], 1.5)
        self.assertAlmostEqual(seq["ramp"]["vs_best"]["ratio"], 1, delta=0.01)
        # each policy's line over its rows: the geometric mean and the
        # worst of its ratios to the best order, from the JSON's rows
        flat = " ".join(text.split())
        for p in ("adaptive", "madvise", "ramp"):
            r = [x["vs_best"]["ratio"] for x in doc["summary"]["adaptive"]
                 if x["policy"] == p]
            gm = math.exp(sum(map(math.log, r)) / len(r))
            self.assertIn(f"{p} over its {len(r)} rows, against the best "
                          f"fixed order: geometric mean {gm:.4f}, worst "
                          f"{max(r):.4f}", flat)
        self.assertRegex(flat, r"madvise over its \d+ rows[^;]*; NOT within \d+%: [1-9]")

    def test_adaptive_against_order_4_under_another_cap(self):
        # capped at 6, the policy's line says order 4 as well: its runs
        # are order 5's, so adaptive / order 4 is order 5's own ratio
        text, doc = report(self.dir, [("patched", make_sweep(
            self.dir, "p", extra=True, cap=6))])
        seq = next(x for x in doc["summary"]["adaptive"]
                   if x["workload"] == "seq" and x["policy"] == "adaptive")
        self.assertEqual(seq["default_order"], 6)
        # from the runs: each boot's median at 5 over its median at 4
        fig = [k for k in doc["runs"][0] if k.endswith("_insn")
               and not k.startswith(("fixed", "teardown"))][0]
        logs = []
        for boot in sorted({r["boot"] for r in doc["runs"]}):
            med = {o: np.median([r[fig] for r in doc["runs"]
                                 if (r["boot"], r["workload"], r["threads"],
                                     r["order"], r["setup"]) ==
                                 (boot, "seq", 1, o, "sweep")]) for o in (4, 5)}
            logs.append(math.log(med[5] / med[4]))
        self.assertAlmostEqual(seq["vs_order_4"]["ratio"],
                               math.exp(sum(logs) / len(logs)), places=6)
        self.assertRegex(" ".join(text.split()), r"; vs order 4 \d")
        # at the default cap, 4, its 'vs default 4' is that line already
        text, doc = report(self.dir, [("patched", make_sweep(
            self.dir, "q", extra=True))])
        self.assertNotRegex(" ".join(text.split()), r"; vs order 4 \d")

    def test_wall_names_the_accelerator(self):
        p = make_sweep(self.dir, "p", orders=(0, 4), reps=2)
        text, _ = report(self.dir, [("patched", p)],
                         meta=("clock=wall", "qemu=kvm "))
        self.assertIn("wall time under KVM", text)
        self.assertNotIn("TCG", text)
        text, _ = report(self.dir, [("patched", p)],
                         meta=("clock=wall", "qemu=tcg "))
        self.assertIn("wall time under TCG", text)

    def test_one_boot_uses_reps(self):
        p = make_sweep(self.dir, "p", boots=1, orders=(0, 1, 2, 3, 4))
        text, doc = report(self.dir, [("patched", p)])
        self.assertIn("repetitions take the boots' place", text)
        self.assertEqual(doc["summary"]["statistics"]["replicate"]["patched"], "rep")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--make"]:
        os.makedirs(sys.argv[2], exist_ok=True)
        for n, s in (("A", 1), ("B", 2))[:2 if "--aa" in sys.argv else 1]:
            print(",".join(make_sweep(sys.argv[2], n, seed=s)))
        sys.exit(0)
    unittest.main()

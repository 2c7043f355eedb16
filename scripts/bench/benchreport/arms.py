# SPDX-License-Identifier: GPL-2.0
"""The arms a report compares beside the orders, for Report (analysis.py):
the placebo arm, the control, the adaptive policy and the baselines, the
module cost and the A/B between two kernels."""
import math

import benchstats as bs

from .data import (ALPHA, CONTROL, POLICIES, MOD_SETUPS, ADAPT_BEST,
                   ADAPT_MARGIN, CHANGING, SPARSE_GOAL, FLAG, base_name,
                   no_order, per_page)
from .compare import Cmp


class Arms:
    """Report's comparisons of arms; see Report for the attributes."""

    def placebo(self, label=None):
        """The placebo arm (sweep.sh's setup placebo: the default order
        run a second time in every repetition, interleaved): one test
        over every workload and thread count, per boot the mean of the
        cells' log(placebo / default), a paired t over boots, with its
        TOST within +-AB_MARGIN; not in the report's Holm families.  It
        fails when that shows a change of at least MIN_EFFECT (p < ALPHA
        and |change| >= MIN_EFFECT, as a mark needs) or one outside the
        margin (TOST), or when any cell does, Holm over the cells: cells
        biased both ways cancel in the mean.  None without placebo runs
        (bench v3's, which had the anon control)."""
        st, o, lb = self.st, self.default, label or self.label

        def k(w, t, setup="sweep"):
            return self.key(w, t, o, setup, lb)
        pairs = [(w, t) for w in self.workloads for t in self.threads[w]
                 if st.has(k(w, t, "placebo")) and st.has(k(w, t))]
        if not pairs:
            return None
        c = Cmp(st.paired([k(w, t, "placebo") for w, t in pairs],
                          [k(w, t) for w, t in pairs]))
        cells = [(w, t, st.ratio(k(w, t, "placebo"), k(w, t))) for w, t in pairs]
        e = c.tost()
        c.padj = c.p if c.p == c.p else None	# a family of one
        for (_, _, x), q in zip(cells, bs.holm([x.p for _, _, x in cells])):
            x.padj = q if q == q else None
        bad = [x for _, _, x in cells if x.sig()]	# Holm-adjusted, >= 1%
        said = ("moves" if c.sig() or e.side == "outside" or bad
                else "holds" if e.equivalent else "inconclusive")
        worst = max(cells, key=lambda x: abs(math.log(x[2].est))
                    if x[2].est == x[2].est else -1)
        if said == "moves" and lb == self.label:
            Cmp.flag = FLAG
        return {"kind": "placebo", "order": o, "overall": (c, e), "cells": cells,
                "cmps": cells, "worst": worst, "verdict": said, "bad_cells": len(bad),
                "boots": c.r.n, "holds": said == "holds"}

    def control(self):
        """The placebo arm where the runs have one (placebo()), else
        bench v3's anon control: every order against the baseline, with
        the estimator of the tables (in the Holm family); its verdict
        waits for Holm (control_verdict())."""
        pl = self.placebo()
        if pl is not None:
            return pl
        w, st, base = CONTROL, self.st, self.orders[0]
        if w not in self.workloads:
            return None
        cmps = []
        for t in self.threads[w]:
            for o in self.orders[1:]:
                k, kb = self.key(w, t, o), self.key(w, t, base)
                if st.has(k) and st.has(kb):
                    c = self.family.add(st.ratio(k, kb), "the anon control")
                    cmps.append((t, o, c, c.tost()))
        if not cmps:
            return {"holds": None, "verdict": None, "cmps": []}
        return {"cmps": cmps}

    def control_verdict(self, ctl):
        """After Holm: the control moves on any Holm-adjusted rejection
        (p < ALPHA, whatever the size) or any ratio shown outside
        +-AB_MARGIN (its TOST interval wholly outside); it holds when every
        order is equivalent within +-AB_MARGIN (TOST); inconclusive
        otherwise.  A point estimate outside the margin with an interval
        across it shows nothing: with 3 boots one of 9 noisy ratios
        usually is, and flagging it would flag nearly every run.  A moving control flags every verdict of
        the report (Cmp.flag): the report is kept, and said suspect,
        rather than lost with the run."""
        if not ctl or not ctl["cmps"] or ctl.get("kind") == "placebo":
            return
        cmps = ctl["cmps"]
        rejected = [x for x in cmps if x[2].padj is not None and x[2].padj < ALPHA]
        outside = [x for x in cmps if x[3].side == "outside"]
        inside = [x for x in cmps if x[3].equivalent]
        said = ("moves" if rejected or outside else
                "holds" if len(inside) == len(cmps) else "inconclusive")
        worst = max(cmps, key=lambda x: abs(math.log(x[2].est))
                    if x[2].est == x[2].est else -1)
        ctl.update(holds=said == "holds", verdict=said, inside=len(inside),
                   rejected=len(rejected), outside=len(outside), worst=worst,
                   moved=len({id(x) for x in rejected + outside}))
        if said == "moves":
            Cmp.flag = FLAG

    def adaptive(self, tables):
        """The adaptive policy per workload and thread count: against the
        best fixed order there (best_of() at that thread count), a verdict
        from the interval against 1 + ADAPT_BEST and no mark (the best was
        picked from these runs); against the default order it starts from,
        marked like the orders; its pages mapped per page read (Rss, or
        where there is none its faults and fa-mapped pages; per distinct
        page read where the runs count them); for mixed, against every
        fixed order; where the pattern changes within one mapping
        (CHANGING), below every fixed order (each interval below 1) or
        not (one shown at or above 1); with one boot no goal is judged;
        where no order applies (no_order()), equivalent to
        the default order within +-ADAPT_MARGIN or not, by TOST from the
        same t (90%), as for the anon control."""
        lines = []
        for (w, t), tb in tables.items():
            for p in POLICIES:
                if p in tb["cells"]:
                    a = self.policy_line(w, t, tb, p)
                    if a:
                        lines.append(a)
        return lines

    def policy_line(self, w, t, tb, p):
        """adaptive()'s line of policy @p (one of POLICIES) at @w, @t."""
        st = self.st
        ka, c = self.key(w, t, p), tb["cells"][p]
        best = self.best_of(w, [t], tb["orders"])
        if best is None:
            return None
        a = {"workload": w, "threads": t, "policy": p, "from": ka[4],
             "best": best, "to_best": st.ratio(ka, self.key(w, t, best))}
        b = a["to_best"]
        a["best_verdict"] = (
            f"within {ADAPT_BEST:.0%} of the best" if b.hi <= 1 + ADAPT_BEST
            else f"NOT within {ADAPT_BEST:.0%}" if b.lo > 1 + ADAPT_BEST
            else f"inconclusive at {ADAPT_BEST:.0%}")
        if a["from"] in tb["orders"]:
            kd = self.key(w, t, a["from"])
            a["to_default"] = self.family.add(st.ratio(ka, kd),
                                              "the adaptive policy against the default")
            if no_order(w):
                e = a["equiv"] = a["to_default"].tost(ADAPT_MARGIN)
                a["equiv_verdict"] = {
                    "inside": f"equivalent to off within +-{ADAPT_MARGIN:.0%}",
                    "outside": "different", None: "inconclusive"}[e.side]
        if a["from"] != 4 and 4 in tb["orders"]:
            # Against 64 KiB on 4 KiB pages too where the cap is another.
            a["to_order4"] = self.family.add(
                st.ratio(ka, self.key(w, t, 4)),
                "the adaptive policy against order 4")
        per_page(a, c)
        if base_name(w) == "sparse" and "per_page" in a:
            a["goal"] = a["per_page"] <= SPARSE_GOAL
        if base_name(w) in CHANGING or base_name(w) == "mixed":
            # Beating every order takes every interval below 1 (not
            # the best's alone: it was picked from the same runs).
            a["to_each"] = {o: st.ratio(ka, self.key(w, t, o))
                            for o in tb["orders"]}
        if base_name(w) in CHANGING:
            each = a["to_each"].values()
            a["below_best"] = (True if all(x.hi < 1 for x in each) else
                               False if any(x.lo >= 1 for x in each)
                               else None)
        if self.st.unit.get(self.label) == "rep":
            # One boot: the reps are no replicate for a goal.
            a["best_verdict"] = "not judged (one boot)"
            a.pop("below_best", None)
            a["one_boot"] = True
        if base_name(w) == "mixed":
            a["beats_all"] = all(x.hi < 1 for x in a["to_each"].values())
        return a

    def modcost(self):
        """Each module setup against mod-off, paired by boot (they ran
        interleaved): the ratio, marked, and its verdict (verdict())."""
        st, lines = self.st, []
        for w, t, o in self.mod_cells():
            off = self.key(w, t, o, "mod-off")
            if not st.has(off):
                continue
            for setup, name in MOD_SETUPS:
                k = self.key(w, t, o, setup)
                if not st.has(k):
                    continue
                c = self.family.add(st.ratio(k, off), "the module's cost")
                lines.append({"workload": w, "threads": t, "order": o,
                              "setup": setup, "name": name, "boot": c,
                              "tost": c.tost(), "n": (len(st.values(k)),
                                                      len(st.values(off))),
                              "minflt": (st.median(k, "minflt"),
                                         st.median(off, "minflt"))})
        return lines

    def ab(self):
        """patched/base per workload, thread count and order both ran:
        Welch on the boots' median logs (the kernels ran in different
        boots), marked, with TOST from the same t; per boot, the ratio of
        the alternating boots' medians (descriptive)."""
        st, other, lines = self.st, self.sets[1][0], []
        for w, t, o in self.ab_cells():
            ka, kb = self.key(w, t, o), self.key(w, t, o, label=other)
            ma, mb = (list(st.blocks(k).values()) for k in (ka, kb))
            c = self.family.add(st.ratio(ka, kb), "the A/B")
            lines.append({"workload": w, "threads": t, "order": o,
                          "boot": c, "tost": c.tost(),
                          "nboots": (len(ma), len(mb)),
                          "n": (len(st.values(ka)), len(st.values(kb))),
                          "per_boot": [x / y for x, y in zip(ma, mb)],
                          "phases": self.phases(ka, kb)})
        return lines

    def phases(self, ka, kb):
        """Where an A/B's difference lies: the same ratio as the figure's
        (Welch on the boots' median logs, its 95% interval, unadjusted,
        descriptive) of the timed loop (the figure less the teardown) and
        of the teardown (the unmapping) alone; {} where a kernel's runs
        did not time the teardown or have none (a program's rows)."""
        timed = {label: t for label, _, t in self.sets}
        td = self.st.values(ka, "teardown_ns") + self.st.values(kb, "teardown_ns")
        if not (timed[ka[0]] and timed[kb[0]]) or not td or min(td) <= 0:
            return {}
        return {"loop": self.st.ratio(ka, kb, field=lambda r:
                                      r["ns"] - r["teardown_ns"]),
                "teardown": self.st.ratio(ka, kb, field="teardown_ns")}

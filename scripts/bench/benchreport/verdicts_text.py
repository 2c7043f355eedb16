# SPDX-License-Identifier: GPL-2.0
"""The report's verdicts in words, for Text (text.py): the
recommendations, the margins, the placebo arm and the control, and the
summary."""
from collections import defaultdict

import benchstats as bs

from .data import (CONF, ALPHA, MIN_EFFECT, AB_CONF, AB_MARGIN, CONTROL,
                   MOD_SETUPS, FLAG)
from .compare import Cmp
from .costmodel import cost_text
from .fmt import fmt_fig, fmt_int, fmt_ratio, para, who


class VerdictText:
    """Text's verdict sections; self.r is the Report."""

    def render_recs(self, recs, out):
        out += para(f"Recommendations: best = the smallest figure (the "
                    f"boot-level geometric mean of the boots' medians, over "
                    f"the thread counts too); recommended = the smallest order"
                    f" shown near the best: the {CONF:.0%} interval of its "
                    f"ratio to the best lies below {1 + MIN_EFFECT:g} (at most "
                    f"the {MIN_EFFECT:.0%} minimum effect worse; the best "
                    f"itself is, so with intervals too wide for any other it "
                    f"is the best).  Each is 'stable' when at most "
                    f"{bs.FLIP_MAX:.0%} of reruns simulated from this run's "
                    f"means and boot-to-boot spread pick another order, "
                    f"'UNSTABLE' otherwise, with that share and the orders "
                    f"they pick (not assessed below 3 boots; the rule's "
                    f"calibration: scripts/bench/tests/test_benchstats.py and the "
                    f"A/A's halves).  Then the pages that the recommended order maps "
                    "against the best and the default order (Rss, or "
                    "fa-mapped where there is no Rss), the memory that a "
                    "larger order costs.")
        for rec in recs:
            out.append("  " + self.rec_line(rec))
        out.append("")

    @staticmethod
    def stab(rec, what, short=False):
        """A verdict's stability ("best" or "rec"), in words."""
        ok = rec.get(f"{what}_stable")
        if ok is None:
            return "?" if short else (f"stability not assessed "
                                      f"({rec.get('boots', 0)} {rec.get('unit', 'boot')}s)")
        if ok:
            return "" if short else "stable"
        moves = ",".join(map(str, rec[f"{what}_moves"]))
        return (f"?{moves}" if short else
                f"UNSTABLE: {rec[f'{what}_flip']:.0%} of simulated reruns "
                f"pick another order ({moves})")

    def rec_line(self, rec):
        """The recommendations section's line for a workload."""
        w = rec["workload"]
        if "note" in rec:
            return f"{w}: no recommendation ({rec['note']})"
        best, o = rec["best"], rec["recommended"]
        s = (f"{w}: best order {best}{Cmp.flag} ({self.stab(rec, 'best')}), "
             f"recommend {o}{Cmp.flag} ({self.stab(rec, 'rec')})")
        same = ", ".join(map(str, rec["near_best"]))
        if len(rec["near_best"]) == 1:
            s += "; no other order is shown near the best"
        c = rec["to_best"]
        if o != best:
            s += f"; to the best {c.ratio_text()} {c.chg():+.2f}%"
        if len(rec["near_best"]) > 1:
            s += f"; shown near the best: {same}"
        if "to_base" in rec:
            s += f"; vs order {rec['base']} {rec['to_base'].text()}"
        else:
            s += f"; it is the baseline, order {rec['base']}"
        if "to_default" in rec:
            s += f"; vs default order {self.r.default} {rec['to_default'].text()}"
        elif o == self.r.default:
            s += "; it is the default order"
        else:
            s += f"; default order {self.r.default} not swept"
        pages = self.rec_pages(rec)
        if pages:
            s += f"; pages mapped: {pages}"
        return s

    def render_margins(self, margins, out):
        u = self.r.u
        out += para(f"Margins per fault: where the faults are the lever (the "
                    f"minor faults vary with the order), what +-"
                    f"{MIN_EFFECT:.0%} of the figure is per minor fault "
                    f"(figure x {MIN_EFFECT:.0%} / minor faults, at the "
                    f"default order {self.r.default}, else the baseline), beside"
                    f" the cost model's fitted cost of a fault (b, {u['raw']} "
                    "per fault; the workload's own fit and the pooled one): "
                    f"an equivalence within +-{MIN_EFFECT:.0%} is one within "
                    "that many per fault.")
        for m in margins:
            b = "; ".join(f"{name} b = {v[0]:,.0f} [{v[1]:,.0f}, {v[2]:,.0f}]"
                          f" ({m['per_fault'] / v[0]:.0%} of it)"
                          for name, v in (("own", m["b"]), ("pooled", m["b_pooled"]))
                          if v and v[0] > 0)
            out.append(f"  {m['workload']:26} {who(m['workload'], m['threads']):9}:"
                       f" +-{MIN_EFFECT:.0%} = {m['per_fault']:,.0f} {u['raw']} "
                       f"per fault at order {m['order']} ({fmt_fig(m['figure'] * u['scale'])}"
                       f" {u['unit']} x {MIN_EFFECT:.0%} / {fmt_int(m['minflt'])} "
                       f"minor faults)" + (f"; {b}" if b else "; no fitted b"))
        out.append("")

    def rec_pages(self, rec, short=False):
        """Pages mapped at the recommended order vs the best and the
        default one, per thread count: Rss, or where there is none (exec),
        fa-mapped; once if every thread count has the same.  short: the
        numbers only, rec/best/default, for the summary."""
        w, bits = rec["workload"], {}
        # The orders in the order rec, best, default; one that is two of
        # them is named once.
        named = {}
        for name, o in (("rec", rec["recommended"]), ("best", rec["best"]),
                        ("default", self.r.default)):
            named.setdefault(o, []).append(name)
        if len(named) < 2:
            return ""
        for t, by in rec["pages"].items():
            if any(o not in by for o in named):
                continue	# the default order was not swept
            vals = [by[o] for o in named]
            if any(v[0] for v in vals):
                kind, i = "Rss", 0
            elif all(v[1] >= 0 for v in vals):
                kind, i = "fa-mapped", 1
            else:
                continue
            if short:
                bits[t] = f"{kind} " + "/".join(
                    fmt_int(by[o][i]) for o in (rec["recommended"],
                                                rec["best"], self.r.default))
            else:
                bits[t] = f"{kind} " + " vs ".join(
                    f"{fmt_int(by[o][i])} at {o} ({'/'.join(n)})"
                    for o, n in named.items())
        if len(set(bits.values())) == 1:
            return bits.popitem()[1]
        return ", ".join(f"{b} ({who(w, t)})" for t, b in bits.items())

    def placebo_line(self, ctl):
        """The placebo arm's verdict (analysis.placebo())."""
        c, e = ctl["overall"]
        w, t, cw = ctl["worst"]
        m = f"+-{AB_MARGIN:.0%}"
        what = (f"placebo / default order {ctl['order']}, one paired test "
                f"over {len(ctl['cells'])} workload and thread count cells "
                f"(per boot the geometric mean of their ratios): "
                f"{c.ratio_text()} ({c.chg():+.2f}%, p {c.p:.2g}; "
                f"{AB_CONF:.0%} [{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]); its "
                f"largest cell {w} ({who(w, t)}) {cw.ratio_text()}, descriptive")
        what += (f"; {ctl['boots']} boots; {ctl['bad_cells']} cell(s) shown "
                 f"to differ by {MIN_EFFECT:.0%} or more (Holm over the cells)")
        said = {"holds": f"placebo holds: {what}, equivalent within {m}",
                "moves": f"placebo FAILS: {what}; a change of at least "
                         f"{MIN_EFFECT:.0%} shown (p < {ALPHA:g}), overall or "
                         f"in a cell, or one outside {m}; every verdict is "
                         f"flagged '{FLAG}'",
                "inconclusive": f"placebo inconclusive: {what}, neither a "
                                f"change nor equivalence within {m} shown"}
        return said[ctl["verdict"]]

    def control_line(self, ctl):
        if ctl and ctl.get("kind") == "placebo":
            return self.placebo_line(ctl)
        if ctl is None:
            return f"no {CONTROL} runs: no control"
        if ctl.get("verdict") is None:
            return f"{CONTROL}: only one order: no control"
        t, o, c, e = ctl["worst"]
        worst = (f"{c.ratio_text()} ({c.chg():+.2f}%; {AB_CONF:.0%} "
                 f"[{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]) at order {o}, "
                 f"{who(CONTROL, t)}")
        n, m = len(ctl["cmps"]), f"+-{AB_MARGIN:.0%}"
        what = (f"{n} orders tested against order {self.r.orders[0]} (per thread "
                f"count, in the Holm family), {ctl['inside']} equivalent within {m}")
        if ctl["verdict"] == "holds":
            return f"{CONTROL}: control holds: {what}, all of them (largest: {worst})"
        if ctl["verdict"] == "moves":
            return (f"{CONTROL}: control MOVES: {what}; {ctl['rejected']} "
                    f"Holm-adjusted rejection(s), {ctl['outside']} ratio(s) "
                    f"shown outside {m} (largest: {worst}); every verdict is flagged "
                    f"'{FLAG}'")
        # Neither: intervals too wide to show it holds, none clear of it.
        return (f"{CONTROL}: control inconclusive: {what}, no rejection and no "
                f"ratio shown outside {m} (too few boots to show it holds; largest: "
                f"{worst})")

    def moved_line(self, ctl):
        """The header's line when the control moved."""
        if ctl.get("kind") == "placebo":
            return (f"PLACEBO FAILED: {self.placebo_line(ctl)}.  The two arms "
                    "differ in nothing but when they ran, so something "
                    "besides the order moves the figure (the boot, the "
                    "host, the order of runs): every verdict below is "
                    f"flagged '{FLAG}'; the run is kept for a reader to judge.")
        t, o, c, _ = ctl["worst"]
        return (f"CONTROL MOVED: {CONTROL}, which no order touches, moves by "
                f"{c.chg():+.2f}% {c.ci()} at order {o} ({who(CONTROL, t)}) "
                f"against order {self.r.orders[0]}: {ctl['rejected']} "
                f"Holm-adjusted rejection(s) and {ctl['outside']} ratio(s) "
                f"shown outside +-{AB_MARGIN:.0%} of {len(ctl['cmps'])}.  Something "
                f"besides the order moves the figure (the boot, the host, the "
                f"order of runs), so every verdict below (marks, best, "
                f"recommended, A/B, module cost) is flagged '{FLAG}'.  The run "
                "is not failed: its data stay for a reader to judge, and a "
                "rerun is the remedy.")

    def render_summary(self, recs, fits, pooled, ctl, cross, mods, abl,
                       adapt, margins=()):
        u, out = self.r.u, ["Summary", "======="]
        if adapt:
            self.render_adaptive(adapt, out)
        if ctl and ctl.get("verdict") == "moves":
            out += para(self.moved_line(ctl))
        out += para(f"Figure: {u['name']}, printed as '{u['unit']}'; ratios "
                    f"with unadjusted {CONF:.0%} t intervals, boots as the "
                    "replicate (paired by boot; A/B: Welch's on the boots' "
                    "medians); marks from the same t, Holm-adjusted, as in "
                    "the header.")
        if len(self.r.orders) < 2:
            out.append(f"Orders: only order {self.r.orders[0]} was run: no "
                       "recommendation.")
        if recs:
            out += para(f"Orders: best = the smallest figure (boot-level "
                        f"geometric mean over the thread counts); rec = the "
                        f"smallest order whose ratio to the best has its "
                        f"{CONF:.0%} interval below {1 + MIN_EFFECT:g}; "
                        "'N?': UNSTABLE (more than "
                        f"{bs.FLIP_MAX:.0%} of simulated reruns pick another "
                        "order; which, below); pages mapped at "
                        "rec/best/default.  No memory limit here: what a "
                        "window costs under reclaim is make bench "
                        "PRESSURE=1's.")
            d = self.r.default

            def pick(rec, what, key):
                s = self.stab(rec, what, short=True)
                return f"{rec[key]}{Cmp.flag}" + ("?" if s[1:] else "")
            def cell(rec, key):
                c = rec.get(key)
                return (c.pct_text() if c else
                        "same order" if key == "to_base" or
                        rec["recommended"] == d else "not swept")
            ww = max([len(rec["workload"]) + 1 for rec in recs] + [20])
            head = f"rec / default {d}, %chg"
            cw = max([len(cell(rec, "to_default")) + 2 for rec in recs
                      if "note" not in rec] + [len(head) + 2])
            out.append(f"  {'workload':{ww}}{'best':>5}{'rec':>6}  {head:{cw}}"
                       f"rec / order {self.r.orders[0]}, %chg")
            for rec in recs:
                w = rec["workload"]
                if "note" in rec:
                    out.append(f"  {w:{ww}}{rec['note']}")
                    continue
                out.append(f"  {w:{ww}}{pick(rec, 'best', 'best'):>5}"
                           f"{pick(rec, 'rec', 'recommended'):>6}  "
                           f"{cell(rec, 'to_default'):{cw}}"
                           f"{cell(rec, 'to_base')}")
            moved = [f"{rec['workload']} {what} {rec[key]} -> "
                     f"{self.stab(rec, what, short=True)[1:]} "
                     f"({rec[f'{what}_flip']:.0%})"
                     for rec in recs if "note" not in rec
                     for what, key in (("best", "best"),
                                       ("rec", "recommended"))
                     if self.stab(rec, what, short=True)[1:]]
            if moved:
                out += para("Unstable (the orders simulated reruns pick "
                            "instead, and how often): "
                            + "; ".join(moved), "  ")
            if any(self.stab(rec, "best", short=True) == "?"
                   for rec in recs if "note" not in rec):
                out.append("  Stability not assessed: fewer than 3 boots.")
            out += para(f"Pages mapped at rec/best/default {d}: " + "; ".join(
                f"{rec['workload']} {self.rec_pages(rec, short=True) or '-'}"
                for rec in recs if "note" not in rec), "  ")
        out.append("Control: " + self.control_line(ctl))
        shown = [r for r in pooled if "b" in r or "c" in r]
        if not shown:
            shown = [r for r in fits if "b" in r and "c" in r]
        fitted = any(k in r for r in fits + pooled for k in r
                     if k in ("b", "c") or k.startswith("b "))
        out.append("Cost model:" if shown else
                   "Cost model: no fit separates b and c (see above)" if fitted
                   else "Cost model: no fit (see above)")
        for res in shown:
            extra = (self.pooled_notes(res, fits, True)
                     if any(res is p for p in pooled) else [])
            out.append(f"  {res['what']}: {cost_text(res, u)}"
                       + "".join(f"; {e}" for e in extra))
        if margins:
            out += para(f"Margins per fault (+-{MIN_EFFECT:.0%} of the figure "
                        "/ minor faults; the fitted b): " + "; ".join(
                            f"{m['workload']}/{m['threads']} "
                            f"{m['per_fault']:,.0f}" + (
                                f" ({m['per_fault'] / (m['b'] or m['b_pooled'])[0]:.0%} of b)"
                                if (m["b"] or m["b_pooled"]) and
                                (m["b"] or m["b_pooled"])[0] > 0 else "")
                            for m in margins) + f" {u['raw']} per fault")
        out.append(f"{self.r.cross}: {cross}")
        if mods:
            out.append(f"Module cost at order {mods[0]['order']} (paired by "
                       f"boot, TOST {AB_CONF:.0%} verdicts, workload/threads):")
            for setup, _ in MOD_SETUPS:
                these = [m for m in mods if m["setup"] == setup]
                if these:
                    out.append(f"  {setup}: " + self.verdict_groups(these))
        if abl:
            out.append(f"A/B {self.r.label}/{self.r.sets[1][0]} (Welch on the "
                       f"boots, TOST {AB_CONF:.0%} verdicts, "
                       "workload/threads@order):")
            out.append("  " + self.verdict_groups(abl))
        return out	# report() fits every line to 100 columns

    @staticmethod
    def verdict_groups(items, most=6):
        """Items by verdict: the commonest one as a count and the range of
        its ratios, the others item by item (at most `most` each)."""
        groups = defaultdict(list)
        orders = {m["order"] for m in items}
        for m in items:
            est = m["boot"].est
            name = f"{m['workload']}/{m['threads']}"
            if len(orders) > 1:
                name += f"@{m['order']}"
            groups[m["verdict"]].append((name, est))
        ranked = sorted(groups.items(), key=lambda g: -len(g[1]))
        said = []
        for i, (v, g) in enumerate(ranked):
            ests = [e for _, e in g]
            if i == 0:
                said.append(f"{v}: {len(g)} of {len(items)} (ratios "
                            f"{min(ests):.4f} to {max(ests):.4f})")
                continue
            names = ", ".join(f"{n} {e:.4f}" for n, e in g[:most])
            more = f", and {len(g) - most} more" if len(g) > most else ""
            said.append(f"{v}: {len(g)}: {names}{more}")
        return "; ".join(said)

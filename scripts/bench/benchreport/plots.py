# SPDX-License-Identifier: GPL-2.0
"""The report's plots (gnuplot, PNG): the figure per order per
workload, and the A/B's ratios."""
import math
import os
import subprocess
import sys

from .data import CONF, AB_CONF, AB_MARGIN, ADAPTIVE
from .compare import Cmp
from .fmt import fmt_short, who

SATURATE = 1.25	# the heatmap's colour: a 5% change shows


class Plots:
    """The report's plots."""

    def __init__(self, r):
        self.r = r

    def plot(self, w, tables, outdir):
        dat = os.path.join(outdir, f"{w}.dat")
        sc = self.r.u["scale"]
        ts = self.r.threads[w]
        # The adaptive policy's cells, (thread index, thread count, cell):
        # a big point after the largest order (two along, for its tic's
        # label), and a line at its level across the orders, in its thread
        # count's colour (png, libgd, draws no dashes).
        marked = [(i, t, tables[(w, t)]["cells"][ADAPTIVE])
                  for i, t in enumerate(ts) if ADAPTIVE in tables[(w, t)]["cells"]]
        xa = self.r.orders[-1] + 2

        def line(x, c):
            fa = c["fa_mapped"] if c["counters"] else "NaN"
            return (f"{x} {c['minflt']} {c['mapped']} {c['ns'] * sc} "
                    f"{c['ns_ci'][0] * sc} {c['ns_ci'][1] * sc} {fa}\n")

        with open(dat, "w") as f:
            for t in ts:
                tb = tables[(w, t)]
                for o in tb["orders"]:
                    f.write(line(o, tb["cells"][o]))
                f.write("\n\n")
            for _, _, c in marked:	# indices len(ts) on
                f.write(line(xa, c) + "\n\n")
        png = os.path.join(outdir, f"{w}.png")
        cells = [c for t in ts for c in tables[(w, t)]["cells"].values()]
        logy = all(c["minflt"] > 0 for c in cells)
        rss = any(c["mapped"] for c in cells)
        fa = all(c["counters"] for c in cells)

        def curves(using, style, what=""):
            return ", ".join(f"'{dat}' index {i} using {using} with {style} "
                             f"title '{what}{who(w, t)}'" for i, t in enumerate(ts))

        def policy(using, style, field, what="", lt=0):
            """The adaptive cells' points, and lines at their level, for
            the curves that are the plot's (lt + 1)th to (lt + len(ts))th:
            in their colours."""
            return "".join(
                f", '{dat}' index {len(ts) + j} using {using} with {style} "
                f"pt 7 ps 2 lt {lt + i + 1} title '{ADAPTIVE}, {what}{who(w, t)}'"
                f", {c[field] * (sc if field == 'ns' else 1)} with lines "
                f"lt {lt + i + 1} notitle" for j, (i, t, c) in enumerate(marked))

        # exec has no Rss (its children's mappings are gone): fa-mapped.
        # shown: (columns, cell field, title) of each kind of pages.
        shown = ([("1:3", "mapped", "Rss, ")] if rss or not fa else []) + \
            ([("1:7", "fa_mapped", "fa-mapped, ")] if fa else [])
        pages = ", ".join(curves(using, "linespoints", what)
                          for using, _, what in shown)
        pages += "".join(policy(using, "points", field, what, k * len(ts))
                         for k, (using, field, what) in enumerate(shown))

        pages_title = ("pages mapped (Rss)" if rss and not fa else
                       "pages mapped (Rss and fa-mapped)" if rss else
                       "pages mapped ahead (fa-mapped)")
        nb = len(self.r.st.boots[self.r.label])
        title = (f"fault-around: {w} (points: medians over all runs of {nb} "
                 f"boot(s); error bars: {CONF:.0%} t interval of the "
                 f"geometric mean of the boots' medians)")
        xtics = "set xtics 1"
        if marked:
            title += (f"\\n{ADAPTIVE}: the adaptive policy (at order "
                      f"{self.r.policy_from[(w, marked[0][1])]}), "
                      "the big point after the largest order and the "
                      "horizontal line at its level")
            xtics = "set xtics (" + ", ".join(
                [f'"{o}" {o}' for o in range(self.r.orders[0], xa - 1)]
                + [f'"{ADAPTIVE}" {xa}']) + ")"
        gp = f"""
set terminal png size 1500,{560 if marked else 520}
set output '{png}'
set multiplot layout 1,3 title "{title}" noenhanced
set offsets 0.3, 0.3, 0, 0
set xlabel 'fault-around order'
{xtics}
set key below
{'set logscale y' if logy else ''}
set title 'minor faults{' (log scale)' if logy else ''}'
set ylabel 'minor faults'
plot {curves('1:2', 'linespoints')}{policy('1:2', 'points', 'minflt')}
unset logscale y
set title '{pages_title}'
set ylabel 'pages'
plot {pages}
set title '{self.r.u['axis']}, median'
set ylabel '{self.r.u['axis']}'
plot {curves('1:4:5:6', 'yerrorlines')}{policy('1:4:5:6', 'yerrorbars', 'ns')}
unset multiplot
"""
        return self.gnuplot(gp, png)

    def plot_ab(self, abl, outdir):
        dat = os.path.join(outdir, "ab.dat")
        with open(dat, "w") as f:
            for a in abl:
                c, e = a["boot"], a["tost"]
                f.write(f"\"{a['workload']}/{a['threads']}@{a['order']}\" {c.est} "
                        f"{e.lo} {e.hi} {c.est} {c.lo} {c.hi}\n".replace("nan", "NaN"))
        png = os.path.join(outdir, "ab.png")
        other = self.r.sets[1][0]
        # Show the margin's lines whatever the intervals.
        ends = [x for a in abl for x in (a["tost"].lo, a["tost"].hi,
                                         a["boot"].lo, a["boot"].hi)
                if x == x]
        lo = min(ends + [1 - 1.5 * AB_MARGIN])
        hi = max(ends + [1 + 1.5 * AB_MARGIN])
        title = (f"A/B {self.r.label}/{other} of {self.r.u['name']}, per "
                 "workload/threads@order\\nerror bars: Welch t on the boots' "
                 f"median logs, {AB_CONF:.0%} (the equivalence verdict's) and"
                 f"\\n{CONF:.0%} (the mark's, unadjusted); gray lines: 1 +- "
                 f"{AB_MARGIN:.0%}")
        hl, b95 = f"Welch, boots ({AB_CONF:.0%})", f"Welch, boots ({CONF:.0%})"
        gp = f"""
set terminal png size {max(900, 60 * len(abl) + 200)},550
set output '{png}'
set title "{title}" noenhanced
set yrange [{lo - 0.1 * (hi - lo)}:{hi + 0.1 * (hi - lo)}]
set ylabel 'ratio {self.r.label}/{other}'
set xtics rotate by -45 noenhanced
set offsets 0.5, 0.5, 0, 0
set key outside bottom center horizontal
plot '{dat}' using ($0-0.12):2:3:4:xtic(1) with yerrorbars pt 7 title '{hl}', \\
     '{dat}' using ($0+0.12):5:6:7 with yerrorbars pt 5 title '{b95}', \\
     1 with lines lc 'black' notitle, \\
     {1 - AB_MARGIN} with lines dt 2 lc 'gray' title '1 +- {AB_MARGIN:.0%}', \\
     {1 + AB_MARGIN} with lines dt 2 lc 'gray' notitle
"""
        return self.gnuplot(gp, png)

    def rows_of(self):
        """The overview's and strips' rows: (workload, threads, name)."""
        return [(w, t, w if len(self.r.threads[w]) == 1 else f"{w}/{t}")
                for w in self.r.workloads for t in self.r.threads[w]]

    def heatmap(self, tables, outdir):
        """overview.png: the overview's ratios to the baseline order, a
        cell per workload and order, coloured by log2 of the ratio (blue
        below 1, red above, white at 1) and printed in the cell."""
        cols = self.r.orders[1:]
        if not cols:
            return None
        rows = self.rows_of()
        dat = os.path.join(outdir, "overview.dat")
        logs = []
        with open(dat, "w") as f:
            for y, (w, t, _) in enumerate(rows):
                for x, o in enumerate(cols):
                    c = tables[(w, t)]["cells"].get(o, {}).get("ratio")
                    est = c.est if c else float("nan")
                    v = math.log2(est) if est == est and est > 0 else "NaN"
                    if v != "NaN":
                        logs.append(v)
                    # png's font has no '~': unmarked is "not shown".
                    mark = "*" if c and c.sig() else ""
                    f.write(f"{x} {y} {v} \"{fmt_short(est)}{mark}\"\n")
                f.write("\n")
        # One scale both ways, a halving as deep as a doubling, saturated
        # at x1.25: scaled to sparse's x29.5, a 5% change was white.
        top = min(max([abs(v) for v in logs] + [0.05]), math.log2(SATURATE))
        ticks = ", ".join(f"'{r:.3g}' {math.log2(r)}" for r in
                          (1 / SATURATE, 1 / 1.1, 1 / 1.05, 1, 1.05, 1.1, SATURATE)
                          if abs(math.log2(r)) <= top + 1e-9)
        png = os.path.join(outdir, "overview.png")
        unit = self.r.st.unit[self.r.label]
        title = (f"{self.r.u['name']}: ratio to order {self.r.orders[0]} "
                 f"(per {unit}, median over median; geometric mean over "
                 f"the {unit}s)\\n* = shown after Holm's correction, "
                 f"unmarked = not; colour: the ratio on a log scale, "
                 f"saturated beyond x{SATURATE:g} either way")
        if Cmp.flag:
            title += "\\nCONTROL MOVED (placebo or anon): every verdict is suspect"
        ytics = ", ".join(f'"{n}" {y}' for y, (_, _, n) in enumerate(rows))
        xtics = ", ".join(f'"{o}" {x}' for x, o in enumerate(cols))
        gp = f"""
set terminal png size {max(760, 90 * len(cols) + 380)},{150 + 34 * len(rows)}
set output '{png}'
set title "{title}" noenhanced
set xlabel 'fault-around order'
set xtics ({xtics})
set ytics ({ytics}) noenhanced
set xrange [-0.5:{len(cols) - 0.5}]
set yrange [{len(rows) - 0.5}:-0.5]
set cbrange [{-top}:{top}]
set palette defined (-1 '#2166ac', 0 'white', 1 '#b2182b')
set cbtics ({ticks})
set cblabel 'ratio (log scale)'
unset key
plot '{dat}' using 1:2:3 with image, '' using 1:2:4 with labels noenhanced font ',9'
"""
        return self.gnuplot(gp, png)

    def strips(self, outdir):
        """strips.png: every run of the order sweep, a panel per workload
        and thread count, its figure against the order, each boot's runs
        side by side in their own colour, so that a boot apart (or a
        workload with two groups of runs) shows."""
        rows = self.rows_of()
        boots = sorted({r["boot"] for r in self.r.sweep})
        if not rows or not boots:
            return None
        dat = os.path.join(outdir, "strips.dat")
        sc, step = self.r.u["scale"], 0.6 / max(1, len(boots))
        logy, spread = [], []
        with open(dat, "w") as f:
            for w, t, _ in rows:
                runs = [r for r in self.r.sweep
                        if r["workload"] == w and r["threads"] == t]
                ys = [r["ns"] * sc for r in runs if r["ns"] > 0]
                logy.append(bool(ys) and max(ys) > 10 * min(ys))
                spread.append((max(ys) / min(ys) - 1) * 100 if ys else 0)
                for r in runs:
                    i = boots.index(r["boot"])
                    x = r["order"] + (i - (len(boots) - 1) / 2) * step
                    f.write(f"{x} {r['ns'] * sc} {i + 1}\n")
                f.write("\n\n")
        ncol = min(4, len(rows))
        nrow = -(-len(rows) // ncol)
        png = os.path.join(outdir, "strips.png")
        # A series per boot, named in the first panel's key only.
        key = "set key top right font ',9' samplen 1"
        panels = "".join(
            f"set title '{name}: max/min {spread[i]:+.1f}%"
            f"{', log y' if logy[i] else ''}' noenhanced font ',10'\n"
            f"{'set logscale y' if logy[i] else 'unset logscale y'}\n"
            f"{key if i == 0 else 'unset key'}\n"
            f"plot for [b=1:{len(boots)}] '{dat}' index {i} using "
            "($3 == b ? $1 : 1/0):2 with points pt 7 ps 0.7 lc b "
            "title sprintf('boot %d', b)\n"
            for i, (_, _, name) in enumerate(rows))
        title = (f"kernel '{self.r.label}': every run of the order sweep, "
                 f"{self.r.u['axis']}\\neach boot's runs side by side "
                 "in its colour; each panel has its own y scale, its "
                 "title the runs' max/min")
        orders = self.r.orders
        gp = f"""
set terminal png size {380 * ncol},{60 + 260 * nrow}
set output '{png}'
set multiplot layout {nrow},{ncol} title "{title}" noenhanced
set xtics 1
set xlabel 'order'
set xrange [{orders[0] - 0.6}:{orders[-1] + 0.6}]
{panels}unset multiplot
"""
        return self.gnuplot(gp, png)

    def residuals(self, fits, pooled, outdir):
        """residuals.png: each run's residual from the cost model (its
        figure less the fit, as a % of the fit) against the order, a
        panel per pooled fit (else per workload fit), a colour per
        workload: a shape left in them is what the model misses."""
        shown = [f for f in pooled if f.get("_resid")] or \
            [f for f in fits if f.get("_resid")]
        if not shown:
            return None
        dat = os.path.join(outdir, "residuals.dat")
        panels = []
        with open(dat, "w") as f:
            for i, fit in enumerate(shown):
                wls = list(dict.fromkeys(w for w, _, _ in fit["_resid"]))
                for j, w in enumerate(wls):
                    for ww, o, r in fit["_resid"]:
                        if ww == w:
                            x = o + (j - (len(wls) - 1) / 2) * 0.6 / len(wls)
                            f.write(f"{x} {100 * r}\n")
                    f.write("\n\n")
                first = sum(len(dict.fromkeys(w for w, _, _ in g["_resid"]))
                            for g in shown[:i])
                panels.append(
                    f"set title '{fit['what'].strip()}' noenhanced\n"
                    "plot " + ", ".join(
                        f"'{dat}' index {first + j} using 1:2 with points "
                        f"pt 7 ps 0.6 title '{w}'" for j, w in enumerate(wls))
                    + ", 0 with lines lc 'black' notitle\n")
        png = os.path.join(outdir, "residuals.png")
        orders = self.r.orders
        gp = f"""
set terminal png size {max(700, 520 * len(shown))},480
set output '{png}'
set multiplot layout 1,{len(shown)} title "the cost model's residuals: each run's figure less its fit, % of the fit" noenhanced
set xlabel 'order'
set ylabel 'residual, % of the fit'
set xtics 1
set xrange [{orders[0] - 0.6}:{orders[-1] + 0.6}]
set key below noenhanced
{''.join(panels)}unset multiplot
"""
        return self.gnuplot(gp, png)

    @staticmethod
    def gnuplot(script, png):
        try:
            subprocess.run(["gnuplot"], input=script, text=True, check=True,
                           stderr=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"bench-report: no plot {png}: {e}", file=sys.stderr)
            return None
        return png

# SPDX-License-Identifier: GPL-2.0
"""The report's text, from Report's numbers: the tables, the cost model
and the overview here; the header in header_text.py, the verdicts'
sections in verdicts_text.py, the other modes' in modes_text.py."""
import benchstats as bs

from .data import CONF, PERF_COVERS, FIO, base_name, no_order
from .compare import Cmp
from .costmodel import cost_text
from .fmt import (fit, fmt_fig, fmt_int, fmt_ratio, fmt_short, para, table,
                  who)
from .header_text import HeaderText
from .modes_text import ModeText
from .verdicts_text import VerdictText


class Text(HeaderText, VerdictText, ModeText):
    """The report's text."""

    def __init__(self, r):
        self.r = r

    def flag(self, text):
        """A verdict's text, flagged once the control moved."""
        return text + Cmp.flag

    def title(self, tb):
        """A table's first line: its workload, workers, pages and runs."""
        w, t, cols, cells = tb["workload"], tb["threads"], tb["cols"], tb["cells"]
        shapes = {cells[o]["shape"][:2] for o in cols}
        per = {tuple(cells[o]["shape"][2]) for o in cols}
        if len(shapes) == 1:
            nb, nr = shapes.pop()
            boots = (f"{nb} boot{'s' if nb != 1 else ''} x {nr // nb} runs = "
                     f"{nr} runs per order" if len(per) == 1 else
                     f"{nb} boots, {nr} runs per order")
            if nb == 1:
                boots += " (CI within-boot only: reps as the replicate)"
        else:
            boots = "runs (boots) per order: " + ", ".join(
                f"{o}: {cells[o]['shape'][1]} ({cells[o]['shape'][0]})"
                for o in cols)
        what = self.r.touched(w)
        pages = cells[cols[0]]["pages"]
        return f"{w}, {who(w, t)} ({fmt_int(pages)} {what}; {boots})"

    def render_table(self, tb, out):
        u = self.r.u
        cols, cells, base = tb["cols"], tb["cells"], self.r.orders[0]
        out.append(self.title(tb))
        rows = []

        def row(name, vals):
            rows.append((name, vals))

        row("order", [f"{o} (baseline)" if o == base else str(o) for o in cols])
        get = {o: cells[o] for o in cols}
        many = len(cols) > 1

        def chg(field):
            b0 = get[cols[0]][field]
            return ["" if o == cols[0] or not b0 else
                    f"{(get[o][field] - b0) / b0 * 100:+.2f}%" for o in cols]

        row("minor faults", [fmt_int(get[o]["minflt"]) for o in cols])
        # A cold file's faults are part major: a fault that reads is not
        # a minor one, so the minor faults alone can fall as reads move
        # into major faults, and the sum is what fault-around saves.
        major = any(get[o]["major"] for o in cols)
        if many:
            row("  %chg minor faults only" if major else "  %chg minor faults",
                chg("minflt"))
        if major:
            row("major faults", [fmt_int(get[o]["majflt"]) for o in cols])
            row("faults (minor+major)", [fmt_int(get[o]["faults"]) for o in cols])
            if many:
                row("  %chg faults", chg("faults"))
        if any(get[o]["prog_faults"] >= 0 for o in cols):
            row("  the program's own (minf+majf)", [
                fmt_int(get[o]["prog_faults"]) for o in cols])
        if all(get[o]["counters"] for o in cols):
            row("fa-mapped pages", [fmt_int(get[o]["fa_mapped"]) for o in cols])
        if any(get[o]["mapped"] for o in cols):
            row("pages mapped (Rss)", [fmt_int(get[o]["mapped"]) for o in cols])
            row("  per fault, median (max)", [
                "-" if not get[o]["per_fault"] else
                "{:.2f} ({:.2f})".format(*get[o]["per_fault"]) for o in cols])
        if any(get[o]["distinct"] > 0 for o in cols):
            row("distinct pages read", [fmt_int(get[o]["distinct"]) for o in cols])
        if any(get[o]["unread"] >= 0 for o in cols):
            row("unread (mapped, not read)", [
                fmt_int(get[o]["unread"]) if get[o]["unread"] >= 0 else "-"
                for o in cols])
        sc = u["scale"]
        row(f"{u['unit']} (median)", [fmt_fig(get[o]["ns"] * sc) for o in cols])
        if base in cols and many:
            row(f"  ratio to order {base}", [  # boot-level (benchstats)
                "1" if o == base else fmt_ratio(get[o]["ratio"].est) for o in cols])
            row(f"  {CONF:.0%} CI", [
                "" if o == base else get[o]["ratio"].ci() for o in cols])
            row(f"  %chg {u['unit']}", [
                "" if o == base else
                f"{get[o]['ratio'].chg():+.2f}% {get[o]['ratio'].mark()}"
                for o in cols])
        if any(get[o]["teardown_ns"] for o in cols):
            row(f"  of which teardown {u['unit']}", [
                fmt_fig(get[o]["teardown_ns"] * sc) for o in cols])
        # fio's fixed_ns: its whole life (1 job: the figure is its I/O
        # time) or its jobs' latencies summed (more jobs).
        fixed = (f"fixed {u['unit']} (excluded)"
                 if base_name(tb["workload"]) not in FIO else
                 f"whole fio {u['unit']} (incl. it)" if tb["threads"] == 1
                 else f"jobs' latency {u['unit']}")
        if any(get[o]["fixed_ns"] for o in cols):
            row(fixed, [fmt_fig(get[o]["fixed_ns"] * sc) for o in cols])
        table(out, rows)
        out.append("")

    def perf_line(self):
        """The header's perf stat line: what was counted and what not, or
        why not; None where there is nothing to say (runs under QEMU)."""
        p, note = self.r.perf, self.r.meta.get("perf", "")
        if note.startswith("not available") or not p["events"]:
            if not note and self.r.u["clock"] != "native":
                return None
            return "perf stat: " + (note or "not available (the runs have "
                                    "no perf columns: sweep.sh without -p)")
        said = []
        if p["counted"]:
            said.append(f"counted {', '.join(p['counted'])} (each run's "
                        "whole fa-bench process, setup included)")
        if p["not_supported"]:
            said.append(f"not supported here: {', '.join(p['not_supported'])}"
                        " (this machine's PMU does not expose them)")
        if p["partly"]:
            said.append("counted in some runs only (left out): " + ", ".join(
                f"{e} ({n} of {m})" for e, (n, m) in p["partly"].items()))
        return "perf stat: " + "; ".join(said + [note] * bool(note))

    def render_perf(self, tables, ptabs, out):
        """The perf stat section: its line, and a table per workload and
        thread count of each counted event's median and interval."""
        line = self.perf_line()
        if line is None:
            return
        if not self.r.perf["counted"]:
            out += para(line + ".") + [""]
            return
        out += para(
            f"perf stat, each run under perf stat -e "
            f"{','.join(self.r.perf['events'])}: a count covers {PERF_COVERS}.  "
            "The median over the runs, with the "
            f"{CONF:.0%} t interval of the geometric mean of the boots' "
            "medians (descriptive: no ratios, no marks).  task-clock: the "
            "CPU time of the process, its threads and children, in ms per "
            "run (perf prints msec to 10 us); page-faults per run, beside "
            "the tables' faults of the timed work (minor + major): the rest "
            "are the setup's and the exit's; any other count per page "
            "touched (exec, dynexec: per program start).  The counting runs "
            "in the timed region too (page-faults at every fault, the clock "
            "at every context switch): the figure includes its cost.")
        if self.r.perf["not_supported"]:
            out += para(f"Not supported here: "
                        f"{', '.join(self.r.perf['not_supported'])}: perf stat "
                        "printed <not supported> in every run: this "
                        "machine's PMU does not expose them.", "  ")

        def row(name, vals):
            rows.append((name, vals))

        for pt in ptabs:
            cols, cells = pt["cols"], pt["cells"]
            out.append(self.title(tables[(pt["workload"], pt["threads"])]))
            rows = []
            row("order", [str(o) for o in cols])
            for e in self.r.perf["counted"]:
                c0 = cells[cols[0]][e]
                fmt = fmt_int if c0["per"] == "run" and c0["unit"] == "count" \
                    else fmt_fig
                unit = "ms " if c0["unit"] == "ms" else ""
                row(f"{e} ({unit}per {c0['per']})",
                    [fmt(cells[o][e]["median"]) for o in cols])
                row(f"  {CONF:.0%} CI", [f"[{fmt(cells[o][e]['lo'])}, "
                                         f"{fmt(cells[o][e]['hi'])}]"
                                         for o in cols])
                if e.endswith("faults") and c0["per"] == "run":
                    row("  the timed work's faults",
                        [fmt_int(cells[o]["faults"]) for o in cols])
            table(out, rows, 38, 22)
            out.append("")

    def render_costs(self, fits, pooled, out):
        u = self.r.u
        out += para(f"Cost model: figure = a + b * minflt + c * fa_mapped "
                    f"(+ d * majflt where the major faults vary apart from "
                    f"them), least squares in each boot over the medians of "
                    f"its runs of each order, of a workload and thread count"
                    f" (b: {u['raw']} per minor fault, c: {u['raw']} per "
                    f"page mapped ahead, d: {u['raw']} per major fault): "
                    f"the boots' mean with its 95% t interval, boots as the "
                    "replicate (a run that a guest event made dearer moves a"
                    " median of its cell, not the fit).  Where the data cannot separate b and "
                    "c, the line says so and gives what they do show; the "
                    "pooled fits share b and c over the workloads, with an "
                    "intercept each; c comes from the workloads whose "
                    "fa_mapped moves apart from their minflt (c from ...), "
                    "and a workload whose own c has an interval that "
                    "excludes the pooled c is named.")
        for res in fits:
            out.append(f"  {res['what']}: {cost_text(res, u)}")
        for res in pooled:
            extra = self.pooled_notes(res, fits)
            out.append(f"  {res['what']} ({', '.join(res['workloads'])}): "
                       f"{cost_text(res, u)}"
                       + "".join(f"; {e}" for e in extra))
        out.append("")

    @staticmethod
    def differ(res, fits):
        """The workloads of a pooled fit whose own c (same thread count)
        has an interval that excludes the pooled c: one c does not fit
        them all."""
        if "c" not in res:
            return []
        return [f["workload"] for f in fits
                if f.get("threads") == res["threads"] and "c" in f
                and f["workload"] in res["workloads"]
                and not f["c"][1] <= res["c"][0] <= f["c"][2]]

    def pooled_notes(self, res, fits, short=False):
        """Where a pooled fit's c comes from, and whether the workloads'
        own fits agree with it."""
        said = []
        if "c_from" in res:
            said.append(f"c from {', '.join(res['c_from'])}" if res["c_from"]
                        else "c from no workload alone (only the workloads' "
                        "different slopes of fa_mapped on minflt)")
        bad = self.differ(res, fits)
        if bad:
            said.append("per-workload fits differ: see above" if short else
                        f"own c excludes the pooled c: {', '.join(bad)}")
        return said

    def report(self, n):
        """The report's lines from analyse()'s numbers."""
        r = self.r
        head = self.header(n["ncmp"], n["ctl"], n["calib"], n.get("power"))
        # The title and the run's settings, then the overview.
        meta = next(i for i, x in enumerate(head) if i and x[:1] != " ")
        out = head[:meta] + self.overview(n) + head[meta:]
        for w in r.workloads:
            for t in r.threads[w]:
                self.render_table(n["tables"][(w, t)], out)
        self.render_perf(n["tables"], n["ptabs"], out)
        self.render_costs(n["fits"], n["pooled"], out)
        if n["margins"]:
            self.render_margins(n["margins"], out)
        if len(r.orders) > 1:
            self.render_recs(n["recs"], out)
        else:
            out += [f"Recommendations: none, only order {r.orders[0]} was "
                    "run.", ""]
        out += ["Control: " + self.control_line(n["ctl"]), ""]
        cross = self.cross_line(n["done"], n["bad"], out)
        if n["mods"]:
            self.render_mod(n["mods"], out)
        if len(r.sets) > 1:
            if n["abl"]:
                self.render_ab(n["abl"], out)
            else:
                out += ["A/B: no workload, thread count and order that both "
                        "kernels ran.", ""]
        out += self.render_summary(n["recs"] if len(r.orders) > 1 else [],
                                   n["fits"], n["pooled"], n["ctl"], cross,
                                   n["mods"], n["abl"], n["adapt"],
                                   n["margins"])
        # Every line fits a 100-column terminal: prose wraps under its
        # indent; the tables are in blocks of orders already.
        return [x for line in out for x in fit(line)]

    def cross_line(self, done, bad, out):
        """The cross-check's verdict, appended to out with the runs that
        disagree; returns the verdict for the summary."""
        skipped = sorted({r["workload"] for r in self.r.sweep} -
                         {r["workload"] for r in done})
        if not done:
            cross = ("not run (no fault_around counters in /proc/vmstat, or "
                     "no run of seq, rand, sparse, mmap-pread-*, exec, "
                     "dynexec)")
        elif bad:
            cross = f"{len(bad)} of {len(done):,} runs DISAGREE"
        else:
            names = ", ".join(dict.fromkeys(r["workload"] for r in done))
            cross = f"all {len(done):,} runs of {names} agree"
        out.append(f"{self.r.cross}: {cross}"
                   + (f" (not checked: {', '.join(skipped)})" if skipped
                      else "")
                   + (":" if bad else "."))
        out += ["  " + b for b in bad]
        out.append("")
        return cross

    def overview(self, n):
        """The report at a glance, first: each workload's ratio to the
        baseline order at every other order (per boot, its median there
        over its median at the baseline; the geometric mean over the
        boots, as every ratio of the report), with its mark, and the best
        and recommended order over the thread counts ('?' where a rerun
        is likely to pick another: benchstats.stable_pick())."""
        r, base = self.r, self.r.orders[0]
        if len(r.orders) < 2:
            return []
        unit = r.st.unit[r.label]
        recs = {x["workload"]: x for x in n["recs"]}
        cols = r.orders[1:]
        out = []
        if Cmp.flag:
            out += para("CONTROL MOVED (the placebo arm failed, or the anon "
                        "control moved): every verdict of this report is "
                        "suspect, the overview's too (the tables flag them "
                        f"'{Cmp.flag}'; the header says why).")
        out += para(f"At a glance: {r.u['name']}, each order's ratio to "
                    f"order {base} (1, not shown; below 1: less): per "
                    f"{unit}, its median there over its median at order "
                    f"{base}, the geometric mean over the {unit}s, marked "
                    "as in the tables below, which give the intervals.  "
                    "best = the smallest figure over the thread counts, "
                    "rec = the smallest order near it, '?' = unstable "
                    f"(more than {bs.FLIP_MAX:.0%} of simulated reruns pick "
                    "another); - where no order "
                    "applies (the controls) or none was picked.")
        # The names' width, no more: 9 orders of a 25-letter name fit 100.
        ww = max([len(w) for w in r.workloads] + [10])
        lead = f"  {'workload':{ww}}{'best':>5}{'rec':>5}"
        rows = [(lead, [str(o) for o in cols])]

        def picks(rec):
            if "best" not in rec or no_order(rec["workload"]):
                return ["-", "-"]
            return [f"{rec[k]}{'?' if rec.get(s) is False else ''}"
                    for k, s in (("best", "best_stable"),
                                 ("recommended", "rec_stable"))]
        for w in r.workloads:
            rec, ts = recs.get(w, {}), r.threads[w]
            if len(ts) > 1:	# the picks are over the thread counts
                b, c = picks(rec)
                rows.append((f"  {w:{ww}}{b:>5}{c:>5}", []))
            for t in ts:
                cells = n["tables"][(w, t)]["cells"]
                name = w if len(ts) == 1 else f"    {who(w, t)}"
                b, c = picks(rec) if len(ts) == 1 else ("", "")
                rows.append((f"  {name:{ww}}{b:>5}{c:>5}", [
                    self.short(cells.get(o, {}).get("ratio")) for o in cols]))
        table(out, rows, len(lead), 7)
        out.append("")
        return out

    @staticmethod
    def short(c):
        """An overview cell: the ratio in five characters and its mark."""
        return ("-" if c is None else
                f"{fmt_short(c.est)}{'*' if c.sig() else '~'}")

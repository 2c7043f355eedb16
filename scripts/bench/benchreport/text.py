# SPDX-License-Identifier: GPL-2.0
"""The report's text, from Report's numbers: the header, the tables,
the cost model, the recommendations, the control, the module cost, the
A/B, the calibration, the adaptive policy and the summary."""
import math
from collections import defaultdict

import benchstats as bs

from .data import (CONF, ALPHA, MIN_EFFECT, AB_CONF, AB_MARGIN,
                   CONTROL, ADAPTIVE, POLICIES, MOD_SETUPS, ADAPT_BEST,
                   ADAPT_MARGIN, CHANGING,
                   SPARSE_GOAL, FLAG, PERF_COVERS, FIO, base_name, no_order)
from .compare import Cmp
from .costmodel import cost_text
from .fmt import (fit, fmt_fig, fmt_int, fmt_ratio, fmt_short, para,
                  table, who)


class Text:
    """The report's text."""

    def __init__(self, r):
        self.r = r

    def flag(self, text):
        """A verdict's text, flagged once the control moved."""
        return text + Cmp.flag

    def families(self):
        """The Holm families, in words."""
        sizes = self.r.family.sizes
        if not sizes:
            return "none"
        q, m = max(sizes.items(), key=lambda x: x[1])
        return (f"{len(sizes)} families, {sum(sizes.values())} comparisons; "
                f"the largest, {m}: '{q}'")

    def power_text(self, pw):
        """The power line: what a '~' can mean."""
        if not pw:
            return None
        at = "; ".join(f"{what} (sd {sd:.2%}): " + ", ".join(
            f"{e:.0%} {p:.0%}" for e, p in pw_.items()) for what, sd, pw_ in pw["at"])
        return (f"Power to mark a change of 1%, 2% and 5% in a family of "
                f"{pw['m']} (a workload's orders) with {pw['boots']} boots at "
                f"Holm's first step, at the boot-to-boot sd of the tables' "
                f"paired log ratios: {at}.  A '~' where the power is low "
                "says little; more boots buy power (benchstats.power_paired).")

    def header(self, ncmp, ctl=None, calib=None, power=None):
        u, st = self.r.u, self.r.st
        out = ["Fault-around sweep (bench v4)"]
        out += [f"  {k}: {v}" for k, v in self.r.meta.items()
                if v and k not in ("default_order", "perf")]
        out.append(f"  default_order: {self.r.default}" + (
            "" if self.r.default_given else " (not given; assumed)"))
        perf = self.perf_line()
        if perf:
            out += para(perf, "  ")
        if "clock" not in self.r.meta:
            out.append("  clock: not given; assumed native")
        if ctl and ctl.get("verdict") == "moves":
            out += para(self.moved_line(ctl))
        if calib:
            out += self.render_calib(calib)
        out += para(f"Figure: {u['name']}, printed as '{u['unit']}': {u['note']}")
        for label, rows, _ in self.r.sets:
            sweep = [r for r in rows if r["setup"] == "sweep"]
            policy = sum(r["setup"] == ADAPTIVE for r in rows)
            base = sum(r["setup"] in POLICIES[1:] for r in rows)
            nb = len(st.boots.get(label, []))
            out.append(f"Kernel '{label}': {nb} boot{'s' if nb != 1 else ''}, "
                       f"{len(rows):,} runs ({len(sweep):,} of the order sweep"
                       + (f", {policy:,} of the adaptive policy" if policy else "")
                       + (f", {base:,} of its baselines" if base else "")
                       + ")" + (", the tables' kernel" if label == self.r.label else ""))
        out.append("Statistics (scripts/bench/benchstats.py):")
        text = [
            "Each order's figure in the tables is the median over all runs "
            "of all boots (descriptive).",
            "Every ratio, interval and mark comes from one estimator with "
            "the boot as the replicate: each boot is summarised by the "
            "median of its runs of a cell.  A kernel's orders and setups ran "
            "interleaved in the same boots, so new/baseline is paired by "
            "boot: d_b = log(new's median in boot b) - log(baseline's), "
            "ratio = exp(mean d), its interval exp(mean d +- t(B - 1) * "
            "sd(d) / sqrt(B)) for B boots, and p, two-sided, from the same t "
            "(over several thread counts, each boot's logs are averaged "
            "first: a geometric mean).  The A/B's kernels ran in different "
            "boots: Welch's t on the boots' median logs, its interval from "
            "the same t (Welch-Satterthwaite df).  With no spread at all "
            "(counts), p = 1 for equal figures and 0 for different ones "
            "given 3 boots (a side), the interval the point; with fewer than "
            "2 boots, no interval and no p.",
            f"The printed {CONF:.0%} intervals are unadjusted.  %chg = (new "
            f"- baseline) / baseline; baseline = order {self.r.orders[0]} "
            "unless stated: negative means fewer faults, fewer pages or a "
            "smaller figure.",
            f"'*' marks a change whose Holm-adjusted p within its question's "
            f"family ({self.families()}) is < {ALPHA} AND whose size "
            f"is at least {MIN_EFFECT:.0%} (the minimum effect that counts); "
            "'~' any other: a '*' always has an interval that excludes 1, "
            "and a '~' may too (not shown after Holm's adjustment).  Fault "
            "and page rows are medians of counts and their %chg is not "
            "tested.",
            f"Equivalence within +-{AB_MARGIN:.0%} (the A/B, the module "
            "cost, the placebo arm or the anon control): two one-sided tests at "
            f"{(1 - AB_CONF) / 2:.0%} from the same t, i.e. the "
            f"{AB_CONF:.0%} interval inside [{1 - AB_MARGIN:g}, "
            f"{1 + AB_MARGIN:g}].",
        ]
        if self.power_text(power):
            text.append(self.power_text(power))
        one = [label for label, v in st.unit.items() if v == "rep"]
        if one:
            text.append(f"Only one boot of {', '.join(one)}: its repetitions "
                        "take the boots' place, so its intervals and p-values "
                        "are within-boot only (no boot-to-boot variation).")
        for t in text:
            out += para(t, "  ")
        out += para(
            "Rows: minor faults = the measured work's faults (with major "
            "faults, where any run has one: the faults that had to read, "
            "and their sum with the minor ones, whose %chg is the one to "
            "read); fa-mapped = "
            "/proc/vmstat fault_around_mapped over the run (pages mapped "
            "ahead besides the faulting ones); pages mapped (Rss) = the "
            "measured mappings' Rss (mmap-pread: summed over its tasks' "
            "mappings; sparse: over its passes), per fault = each run's "
            "Rss / its faults, the median over the runs (not the ratio of "
            "the two medians above) and the most: the pages one fault "
            "mapped, above 2^order where a large folio is mapped whole; "
            "teardown = the munmap "
            "after the work, included in the figure; fixed = creating and "
            "joining the threads or tasks, excluded from it; distinct read "
            "(where counted) = the distinct pages the work read, summed "
            "over its passes; unread = pages of the measured mappings "
            "mapped at the end of a pass but never read, summed over the "
            "passes; fio's figure is, with one job, its own I/O time (its "
            "JSON's lat_ns, mean x N), and its 'whole fio' row all of its "
            "life, start-up included; with more jobs, the figure is fio's "
            "whole life and its 'jobs' latency' row their I/O times summed "
            "(under -icount a job's latencies absorb the other vCPUs' "
            "turns, so that sum is no figure); fio's faults and counters "
            "are all of its life either way.")
        if any(t > 1 for ts in self.r.threads.values() for t in ts):
            out += para(
                "Rows of N threads or tasks: "
                + ("under -icount the vCPUs run in turn, so their figure is "
                   "the N workers' instructions summed, not parallel time, "
                   "and shows no contention (atomics count as instructions, "
                   "cache-line transfers not at all); make bench NATIVE=1 on "
                   "hardware measures that."
                   if self.r.u["field"] == "icount_insn" else
                   "the workers run at once on the machine's CPUs (a "
                   "guest's vCPUs, or natively its CPUs), their figure the "
                   "time from the first start to the last finish."), "  ")
        if self.r.policy_from:
            starts = ", ".join(map(str, sorted(set(self.r.policy_from.values()))))
            out += para(
                f"Column {ADAPTIVE}: the runs with the adaptive policy on "
                f"(setup {ADAPTIVE}: the kernel's vm.fault_around_adaptive "
                "since faultaround 6d713d5, capped by the global order; "
                "mod_faultaround's per-VMA policy before), at the kernel's "
                f"default order {starts} (their order column holds "
                "it); one a repetition, shuffled among the orders' runs in "
                "the same boots.  Its ratio, interval, %chg and mark are "
                f"against order {self.r.orders[0]}, as an order's.  The "
                "recommendations, the cost model and the cross-check are of "
                "the fixed orders only; the summary opens with the policy "
                "against them.")
            if any(k[1] in POLICIES[1:] for k in self.r.st.cells):
                out += para(
                    "Columns madvise and ramp: the adaptive policy's two "
                    "simple baselines, mod_faultaround's (its policy file; "
                    "sweep.sh -y), in the same boots and shuffled the same "
                    "way, at the same cap: madvise, each mapping with the "
                    "madvise() hint its reader would give (fa-bench -A: "
                    "MADV_SEQUENTIAL for the readers in order, MADV_RANDOM "
                    "for the random and sparse ones, none where the pattern "
                    "changes and for programs), one page under MADV_RANDOM "
                    "and the cap otherwise (the hint also steers readahead "
                    "on the cold rows); ramp, readahead's ramp per open "
                    "file: 4 pages, then x4 below a sixteenth of the cap "
                    "and x2 above on each fault within two windows of the "
                    "file's last, back to 4 pages on any other.")
        if not all(t for _, _, t in self.r.sets):
            old = [label for label, _, t in self.r.sets if not t]
            out += para(f"The CSVs of {', '.join(old)} predate fixed_ns and "
                        "teardown_ns: not recorded (taken as 0).", "  ")
        out.append("")
        return out

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

    def render_mod(self, mods, out):
        boots = sorted({r["boot"] for r in self.r.modruns})
        out += para(f"Module cost at order {mods[0]['order']}: "
                    f"{self.r.u['name']} with mod_faultaround loaded / not "
                    f"loaded, paired by boot over {len(boots)} boot(s) (the "
                    "setups ran interleaved in them): the ratio with its "
                    f"{CONF:.0%} interval and %chg, marked as the orders; its "
                    f"{AB_CONF:.0%} interval from the same t, and the "
                    f"verdict: 'equivalent within +-{AB_MARGIN:.0%}' when "
                    f"that lies in [{1 - AB_MARGIN:.2f}, {1 + AB_MARGIN:.2f}], "
                    "'differs' when marked '*' (after Holm), "
                    f"'inconclusive, costs at most +{AB_MARGIN:.0%}' when "
                    "only its top is inside, 'inconclusive' otherwise.")
        if any(m["setup"] == "mod-adaptive" for m in mods):
            out += para("mod-adaptive is the module's adaptive policy on, "
                        "no override: it keeps state per mapping and picks "
                        "each one's window (seq and rand: one mapping, "
                        "each thread reading its share; vmas: a new "
                        "mapping per pair of pages), so "
                        "its ratio is the policy's bookkeeping and its "
                        "windows together, and its minor faults (median, "
                        "against not loaded's) show the windows."
                        + ("  Under -icount the vCPUs run in turn: "
                           "atomics count as instructions, cache-line "
                           "transfers do not, so N threads show the "
                           "decisions, not contention"
                           if self.r.u["field"] == "icount_insn" else
                           "  N threads run on the guest's vCPUs")
                        + " (make bench NATIVE=1 cannot load the module; "
                        "hardware is untested).")
        for m in mods:
            e = m["tost"]
            flt = (f"; minor faults {m['minflt'][0]:,.0f} (not loaded "
                   f"{m['minflt'][1]:,.0f})"
                   if m["setup"] == "mod-adaptive" else "")
            out.append(f"  {m['workload']:15} {who(m['workload'], m['threads']):9}, "
                       f"{m['name']:13}: {m['boot'].text()}; {AB_CONF:.0%} "
                       f"[{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]: {m['verdict']}"
                       + flt)
        out.append("")

    def render_ab(self, abl, out):
        other = self.r.sets[1][0]
        out += para(f"A/B: {self.r.label}/{other} of the figure "
                    f"({self.r.u['name']}), per workload, thread count and "
                    "order both ran.")
        out += para(f"Welch's t on the logs of the boots' medians (the boot "
                    f"is the unit: the kernels ran in different boots): the "
                    f"ratio with its {CONF:.0%} interval and %chg, marked as "
                    f"the orders; its {AB_CONF:.0%} interval from the same t, "
                    f"and the verdict: 'equivalent within +-{AB_MARGIN:.0%}' "
                    f"when that lies in [{1 - AB_MARGIN:.2f}, "
                    f"{1 + AB_MARGIN:.2f}] (two one-sided tests at "
                    f"{(1 - AB_CONF) / 2:.0%}), 'differs' when marked '*', "
                    "'inconclusive' when neither.  per boot: the ratio of "
                    "each pair of alternating boots' medians (descriptive).",
                    "  ")
        for a in abl:
            e = a["tost"]
            out.append(f"  {a['workload']:15} {who(a['workload'], a['threads']):9}"
                       f" order {a['order']}: {a['boot'].text()}; "
                       f"{AB_CONF:.0%} [{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]: "
                       f"{a['verdict']}; boots {a['nboots'][0]}/{a['nboots'][1]}, "
                       f"runs {a['n'][0]}/{a['n'][1]}; per boot "
                       f"{' '.join(f'{x:.4f}' for x in a['per_boot'])}")
        out.append("")

    def render_calib(self, cal):
        """The A/A's header lines: each verdict type's false positives."""
        def r(x):
            if not x["n"]:
                return "none tested"
            said = (f"{x['k']} of {x['n']}, {x['rate']:.1%} [{x['lo']:.1%}, "
                    f"{x['hi']:.1%}] (Clopper-Pearson 95%) against nominal "
                    f"{x['nominal']:.0%}: {x['status']}")
            if x["status"] == "EXCEEDS":
                said += (" nominal: this method must be fixed before any of "
                         "its verdicts is quoted")
            elif x["status"] != "at or below":
                said += (": not to be quoted until a larger A/A shows it at "
                         "or below nominal")
            return said

        other = self.r.sets[1][0]
        out = para(f"A/A calibration: '{self.r.label}' and '{other}' are the "
                   "same kernel, booted alternately, so every difference "
                   "between them is noise and every verdict of a difference "
                   "a false positive.  Rows share boots (not independent): the "
                   "intervals are a guide.")
        out += para(f"A/B rows, Welch p < {ALPHA} unadjusted (the test "
                    f"itself): {r(cal['ab_unadjusted'])}", "  ")
        k, n = cal["ab_marked"]["k"], cal["ab_marked"]["n"]
        out += para(f"A/B rows marked '*' / 'differs' (Holm over the report,"
                    f" at least {MIN_EFFECT:.0%}): {k} of {n}"
                    + ("" if not k else "; any is a family-wise false "
                       f"positive, which Holm keeps below {ALPHA:.0%} a "
                       "report"), "  ")
        out += para(f"A/B rows equivalent within +-{AB_MARGIN:.0%} (TOST, "
                    f"correct here): {cal['ab_equivalent']} of "
                    f"{cal['ab_rows']}; inconclusive {cal['ab_inconclusive']};"
                    f" wholly outside +-{AB_MARGIN:.0%} (false) "
                    f"{cal['ab_outside']}", "  ")
        out += para(f"Within a kernel, where no order applies (anon, @huge), "
                    f"every order against order {self.r.orders[0]}, both "
                    f"labels, paired p < {ALPHA} unadjusted: "
                    f"{r(cal['paired_unadjusted'])}; equivalent within "
                    f"+-{AB_MARGIN:.0%}: {cal['paired_equivalent']} of "
                    f"{cal['paired_rows']}", "  ")
        names = {"ab_unadjusted": "A/B rows, Welch p", "paired_unadjusted":
                 "paired, where no order applies", "placebo_cells_unadjusted":
                 "placebo cells, paired p", "placebo_overall":
                 "placebo overall test"}
        for t, x in cal.get("pooled", {}).items():
            if not x["n"]:
                continue
            mine = bool(cal.get(t, {}).get("n"))
            out += para(f"Pooled over {x['runs']} A/A run(s) with this type"
                        + (", this one among them" if mine else ", not this one")
                        + f" (each its own design and code; rows share boots, "
                        f"so the interval is a guide): {names.get(t, t)}: {r(x)}",
                        "  ")
        out += para(f"The placebo arm, both labels: its cells (default order"
                    f" run twice, paired p < {ALPHA} unadjusted): "
                    f"{r(cal['placebo_cells_unadjusted'])}; its overall test "
                    f"failed: {r(cal['placebo_overall'])}", "  ")
        need = [x for x in cal.get("boots_needed", ()) if x[0]]
        if need:
            ns = sorted(x[0] for x in need)
            worst = max(need, key=lambda x: x[0])
            nb = len(self.r.st.boots.get(self.r.label, []))
            out += para(f"Sample size from this A/A (fixed before an A/B, no "
                        f"reruns until it passes): boots a side for an A/B's "
                        f"TOST within +-{AB_MARGIN:.0%} to reach 80% power, "
                        f"from each row's boot-to-boot sd: median "
                        f"{ns[len(ns) // 2]}, at most {worst[0]} "
                        f"({worst[2]}, sd {worst[1]:.2%}); this run had {nb}"
                        + ("; rows needing more than 1000: "
                           + str(len(cal["boots_needed"]) - len(need))
                           if len(need) < len(cal["boots_needed"]) else ""),
                        "  ")
        for what, rows in cal["split"].items():
            if not rows:
                out += para(f"Split halves, {what} order: none (fewer than 2 "
                            "orders)", "  ")
                continue
            same = sum(x["A"] == x["B"] for x in rows)
            both = [x for x in rows if x["stable"] == (True, True)]
            bad = [x for x in both if x["A"] != x["B"]]
            differ = ", ".join(f"{x['workload']} {x['A']}/{x['B']}"
                               + ("" if x["stable"] == (True, True) else
                                  " (marked unstable)" if False in x["stable"]
                                  else " (not assessed)")
                               for x in rows if x["A"] != x["B"])
            flips = [(a + b) / 2 for a, b in (x["flip"] for x in rows)
                     if a == a and b == b]
            lo, hi = bs.clopper_pearson(len(rows) - same, len(rows))
            agree = [x for x in rows if x["A"] == x["B"]]
            alarms = sum(s is False for x in agree for s in x["stable"])
            misses = sum(s is True for x in rows if x["A"] != x["B"]
                         for s in x["stable"])
            out += para(f"Split halves, {what} order ({self.r.label}'s own "
                        f"against {other}'s): the same for {same} of "
                        f"{len(rows)} workloads"
                        + (f" (differ: {differ})" if differ else "")
                        + (f"; the stability rule expected "
                           f"{sum(flips):.1f} to differ, "
                           f"{len(rows) - same} did (95% [{lo * len(rows):.1f}, "
                           f"{hi * len(rows):.1f}])" if flips else "")
                        + f"; of the {len(both)} marked stable in both, "
                        f"{len(bad)} differ"
                        + (": the stability mark FAILED there" if bad else "")
                        + f"; marks: {alarms} UNSTABLE of {2 * len(agree)} "
                        f"where the halves agree (false alarms), {misses} "
                        f"stable of {2 * (len(rows) - len(agree))} where "
                        "they differ (misses)",
                        "  ")
        return out

    def render_adaptive(self, adapt, out):
        """The summary's first section: the adaptive policy, a line per
        workload and thread count (mixed: and one of its ratios to every
        fixed order)."""
        u, names = self.r.u, {base_name(a["workload"]) for a in adapt}
        starts = ", ".join(map(str, sorted({a["from"] for a in adapt})))
        text = (
            f"Adaptive: the adaptive policy against the fixed "
            f"orders, per workload and thread count.  ratio = adaptive / "
            f"other of {u['name']} ('{u['unit']}'), paired by boot as in the "
            f"header, below 1 when adaptive is better, with its {CONF:.0%} "
            f"interval; %chg = "
            f"(new - baseline) / baseline, adaptive the new.  best = the fixed "
            f"order with the smallest boot-level figure at that thread count: 'within "
            f"{ADAPT_BEST:.0%} of the best' when the interval's top is <= "
            f"{1 + ADAPT_BEST:g}, 'NOT within {ADAPT_BEST:.0%}' when its bottom "
            f"is above, 'inconclusive at {ADAPT_BEST:.0%}' otherwise (no mark: "
            f"the best is picked from the same runs).  default = order "
            f"{starts}, the global order the policies ran at, their cap (the "
            f"kernel's default unless make bench CAP= set it), marked "
            f"as in the header; where that is not 4, 'vs order 4' too (the "
            f"generic 64 KiB with 4 KiB pages), marked the same way.  pages/read = pages mapped per distinct page "
            f"read where the runs count those, else pages/touched, per page "
            f"touched (repeats count; exec, dynexec: per program start): Rss,"
            f" or where there is none, faults + fa-mapped (the median over "
            f"the runs of minor and major faults and fa-mapped pages: each "
            f"fault's page and those mapped around it); unread = pages mapped"
            f" but never read, where measured")
        text += (f"; sparse's goal is at most {SPARSE_GOAL:g}." if "sparse" in names
                 else ".")
        if names & set(CHANGING):
            text += ("  Where the pattern changes within one mapping ("
                     + ", ".join(w for w in CHANGING if w in names)
                     + "), the goal is to beat every fixed order: "
                     "met when every ratio's interval lies below 1, "
                     "missed when one lies at or above 1.  With one boot "
                     "no goal is judged.")
        if "mixed" in names:
            text += ("  mixed beats every fixed order only if every ratio's "
                     "interval lies below 1; margin = adaptive / best - 1, "
                     "in %, with its interval.")
        if any("equiv" in a for a in adapt):
            m = ADAPT_MARGIN
            text += (f"  Where no order applies (anon, page_fault2 and 3, "
                     f"@huge): equivalent to "
                     f"off within +-{m:.0%} when the {AB_CONF:.0%} interval "
                     f"of adaptive / default, from the same t, as for the "
                     f"anon control (two one-sided tests at "
                     f"{(1 - AB_CONF) / 2:.0%}), lies in [{1 - m:g}, {1 + m:g}],"
                     f" different when wholly outside it, inconclusive "
                     f"otherwise.")
        out += para(text)
        if any(a["policy"] != ADAPTIVE for a in adapt):
            out += para(
                "Each workload's line is the adaptive policy's; the lines "
                "under it, marked madvise and ramp, are its two baselines "
                "(the columns of those names), judged the same way: the "
                "goals are the adaptive policy's, the baselines' lines say "
                "how far a simpler rule gets.")
        for a in adapt:
            w, b = a["workload"], a["to_best"]
            name = w if a["policy"] == ADAPTIVE else f"  {a['policy']}"
            s = (f"  {name:26} {who(w, a['threads']):9}: vs best order {a['best']} "
                 f"{b.ratio_text()} {b.chg():+.2f}%, {self.flag(a['best_verdict'])}; ")
            s += (f"vs default {a['from']} {a['to_default'].text()}"
                  if "to_default" in a else f"default {a['from']} not swept")
            if "to_order4" in a:
                s += f"; vs order 4 {a['to_order4'].text()}"
            if "per_page" in a:
                s += (f"; pages/{a['per']} {fmt_ratio(a['per_page'])} "
                      f"({a['pages_kind']})")
            if "unread" in a:
                s += f", unread {fmt_int(a['unread'])}"
            if "goal" in a:
                s += (f", <= {SPARSE_GOAL:g}: meets the goal" if a["goal"] else
                      f", above {SPARSE_GOAL:g}: MISSES the goal")
            if "below_best" in a:
                s += {True: "; below every fixed order: meets the goal",
                      False: "; NOT below every fixed order: MISSES the goal",
                      None: "; inconclusive against the fixed orders"}[
                          a["below_best"]]
            if "beats_all" in a:
                lost = [o for o, c in a["to_each"].items() if not c.hi < 1]
                s += ("; beats every fixed order" if a["beats_all"] else
                      "; does NOT beat every fixed order (interval not below 1"
                      f" against order{'s' * (len(lost) > 1)} "
                      f"{', '.join(map(str, lost))})")
                s += (f", margin vs best order {a['best']} {b.chg():+.2f}% "
                      f"[{(b.lo - 1) * 100:+.2f}%, {(b.hi - 1) * 100:+.2f}%]")
            if "equiv" in a:
                e = a["equiv"]
                s += (f"; vs default {a['from']} at {AB_CONF:.0%} "
                      f"[{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]: "
                      f"{self.flag(a['equiv_verdict'])}")
            out.append(s)
            if "to_each" in a:
                out.append(f"    {a['policy']} / order: " + ", ".join(
                    f"{o}: {c.ratio_text()}" for o, c in a["to_each"].items()))
        for policy in dict.fromkeys(a["policy"] for a in adapt):
            out.append(self.adaptive_total(
                [a for a in adapt if a["policy"] == policy]))

    @staticmethod
    def adaptive_total(rows):
        """A policy's rows in one line: against the best fixed order the
        geometric mean and the worst ratio, the rows not within ADAPT_BEST
        of it, and the goals missed."""
        r = [a for a in rows if a["to_best"].est == a["to_best"].est]
        if not r:
            return f"  {rows[0]['policy']}: no row to sum up"
        gm = math.exp(sum(math.log(a["to_best"].est) for a in r) / len(r))
        worst = max(r, key=lambda a: a["to_best"].est)
        far = [a for a in r if a["best_verdict"].startswith("NOT")]
        missed = [a for a in r if False in (a.get("goal"), a.get("below_best"),
                                            a.get("beats_all"))]

        def names(xs):
            return ", ".join(f"{a['workload']}/{a['threads']}" for a in xs)
        return (f"  {rows[0]['policy']} over its {len(r)} rows, against the "
                f"best fixed order: geometric mean {gm:.4f}, worst "
                f"{worst['to_best'].est:.4f} ({worst['workload']}/"
                f"{worst['threads']}); NOT within {ADAPT_BEST:.0%}: {len(far)}"
                + (f" ({names(far)})" if far else "")
                + f"; goals missed: {len(missed)}"
                + (f" ({names(missed)})" if missed else ""))

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

# SPDX-License-Identifier: GPL-2.0
"""The sections of make bench's other modes, for Text (text.py): the
module cost, the A/B, the A/A's calibration and the adaptive policy."""
import math

import benchstats as bs

from .data import (CONF, ALPHA, MIN_EFFECT, AB_CONF, AB_MARGIN, ADAPTIVE,
                   ADAPT_BEST, ADAPT_MARGIN, CHANGING, SPARSE_GOAL, base_name)
from .fmt import fmt_int, fmt_ratio, para, who


class ModeText:
    """Text's mode sections; self.r is the Report."""

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
                    "each pair of alternating boots' medians; loop and "
                    "teardown: the same ratio and 95% interval of the timed "
                    "loop (the figure less the teardown) and of the "
                    "teardown (the unmapping) alone (descriptive, "
                    "unadjusted; none where a row has no teardown).",
                    "  ")
        for a in abl:
            e = a["tost"]
            out.append(f"  {a['workload']:15} {who(a['workload'], a['threads']):9}"
                       f" order {a['order']}: {a['boot'].text()}; "
                       f"{AB_CONF:.0%} [{fmt_ratio(e.lo)}, {fmt_ratio(e.hi)}]: "
                       f"{a['verdict']}; boots {a['nboots'][0]}/{a['nboots'][1]}, "
                       f"runs {a['n'][0]}/{a['n'][1]}; per boot "
                       f"{' '.join(f'{x:.4f}' for x in a['per_boot'])}"
                       + "".join(f"; {k} {v.ratio_text()}"
                                 for k, v in a.get("phases", {}).items()))
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

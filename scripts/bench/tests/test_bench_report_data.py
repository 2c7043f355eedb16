#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The parts of bench-report.py that read and format: fmt and data (the runs
loaded, their units, the cross-checks of the counters, fio's own counts),
on inputs whose answer is known by hand.  The other parts are
test_bench_report_parts.py's; the report end to end test_bench_report.py's.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from benchreport import fmt, data	# noqa: E402


class Fmt(unittest.TestCase):
    def test_para_wraps_and_indents(self):
        lines = fmt.para("word " * 60, indent="  ")
        self.assertGreater(len(lines), 2)
        self.assertTrue(all(len(x) <= 100 for x in lines))
        self.assertTrue(lines[0].startswith("  w"))
        self.assertTrue(all(x.startswith("    w") for x in lines[1:]))

    def test_numbers(self):
        self.assertEqual(fmt.fmt_ratio(0.98051), "0.9805")
        self.assertEqual(fmt.fmt_ratio(42.123), "42.12")
        self.assertEqual(fmt.fmt_ratio(float("nan")), "-")
        self.assertEqual(fmt.fmt_int(15360.4), "15,360")
        self.assertEqual(fmt.fmt_fig(0.5), "0.5")
        self.assertEqual(fmt.fmt_fig(1234.5678), "1,234.568")

    def test_who(self):
        self.assertEqual(fmt.who("mmap-pread-seq@ext4", 2), "2 tasks")
        self.assertEqual(fmt.who("seq", 1), "1 thread")


class Data(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_load_types_and_defaults(self):
        path = os.path.join(self.tmp, "r.csv")
        with open(path, "w") as f:
            f.write("workload,threads,order,setup,rep,minflt,majflt,ns,"
                    "pages,mapped\nseq,1,4,sweep,1,240,0,7000000,3840,3840\n")
        rows, timed = data.load("x", path)
        self.assertFalse(timed)	# no fixed_ns/teardown_ns columns
        r = rows[0]
        self.assertEqual((r["order"], r["ns"], r["boot"]), (4, 7000000, 1))
        self.assertEqual((r["fa_calls"], r["fa_mapped"], r["distinct"]),
                         (-1, -1, -1))

    def test_load_names_a_missing_column(self):
        path = os.path.join(self.tmp, "r.csv")
        with open(path, "w") as f:
            f.write("workload,threads,order,setup,rep\nseq,1,4,sweep,1\n")
        with self.assertRaises(SystemExit) as e:
            data.load("x", path)
        self.assertIn("lacks", str(e.exception))
        self.assertIn("minflt", str(e.exception))

    def test_units_name_the_clock(self):
        self.assertEqual(data.units("icount")["name"], "guest instructions")
        self.assertIn("KVM", data.units("wall", "kvm -m 1G")["name"])
        self.assertIn("TCG", data.units("wall", "tcg")["name"])

    def test_crosscheck(self):
        def run(w, order, calls, fa, rss, threads=1, faults=300):
            return dict(label="p", boot=1, workload=w, threads=threads,
                        order=order, rep=1, fa_calls=calls, fa_mapped=fa,
                        mapped=rss, minflt=faults, majflt=0)
        good = [run("seq", 4, 240, 3600, 3840), run("seq", 0, 0, 0, 3840),
                run("seq", 4, 300, 3600, 3840, threads=2),
                run("exec", 4, 250, 2750, 0), run("build", 0, 0, 0, 0),
                run("build", 4, 300, 4500, 0)]	# every call a full window
        done, bad = data.crosscheck(good)
        self.assertEqual((len(done), bad), (6, []))
        wrong = [run("seq", 4, 240, 3500, 3840),	# Rss != calls + fa
                 run("exec", 2, 0, 0, 0),	# nothing mapped ahead
                 run("seq", 0, 1, 0, 3840),	# counted at order 0
                 run("build", 0, 1, 0, 0),	# the same without Rss
                 run("build", 4, 301, 4500, 0),	# more calls than faults
                 run("rebuild", 2, 100, 301, 0)]	# over 3 pages a call
        done, bad = data.crosscheck(wrong)
        self.assertEqual(len(bad), 6)
        self.assertIn("nothing mapped ahead", bad[1])

    def test_crosscheck_cold_states(self):
        # dropped before each run (@ext4-sparse, sparse-1g): a fault that
        # waits on readahead faults around again, so one task's Rss may
        # be below calls + fa-mapped; warm it may not; and without Rss no
        # calls bound where cold
        def run(w, rss, calls=300, fa=4500, order=4, faults=300):
            return dict(label="p", boot=1, workload=w, threads=1,
                        order=order, rep=1, fa_calls=calls, fa_mapped=fa,
                        mapped=rss, minflt=faults, majflt=0, pages=15360,
                        prog_minflt=970, prog_majflt=0)
        done, bad = data.crosscheck([run("mmap-pread-seq@ext4-sparse", 4700),
                                     run("sparse-1g", 4700),
                                     run("mmap-pread-seq@ext4", 4800),
                                     run("fio-read@ext4-cold", 0, calls=1200,
                                         faults=1000)])
        self.assertEqual((len(done), bad), (4, []))
        done, bad = data.crosscheck([run("mmap-pread-seq@ext4", 4700),
                                     run("exec", 0, faults=200)])
        self.assertEqual(len(bad), 2)	# warm: exact, and the calls bound

    def test_crosscheck_large_folios(self):
        # dynexec@ext4-ra: 7.3 maps a large folio whole, so fault-around
        # may map more than a window a call there, and only there; the
        # rest of the check holds
        def run(w, fa, order=2, calls=250):
            return dict(label="p", boot=1, workload=w, threads=1,
                        order=order, rep=1, fa_calls=calls, fa_mapped=fa,
                        mapped=0, minflt=300, majflt=0)
        done, bad = data.crosscheck([run("dynexec@ext4-ra", 2000)])
        self.assertEqual((len(done), bad), (1, []))
        # shared memory in an mTHP size is such a state; a state that
        # only has "shmem" in its name is not
        self.assertTrue(data.whole_folios("seq@shmem-64k"))
        self.assertFalse(data.checked("seq@shmem-64k"))
        self.assertFalse(data.whole_folios("seq@tmpfs-shmem"))
        self.assertTrue(data.checked("seq@tmpfs-shmem"))
        done, bad = data.crosscheck([run("dynexec", 2000),
                                     run("dynexec@ext4-ra", 0),
                                     run("dynexec@ext4-ra", 10, order=0),
                                     run("dynexec@ext4-ra", 10, calls=301)])
        self.assertEqual(len(bad), 4)

    def test_fio_own_awk(self):
        # sweep.sh's fio rows: fio-own.awk on fio's JSON layout, two jobs
        job = '''    {{
      "jobname" : "fa",
      "read" : {{
        "io_bytes" : 4096,
        "slat_ns" : {{
          "min" : 0,
          "mean" : 0.000000,
          "N" : 0
        }},
        "clat_ns" : {{
          "min" : 1,
          "mean" : 99.000000,
          "N" : {n}
        }},
        "lat_ns" : {{
          "min" : 100,
          "mean" : {mean},
          "stddev" : 1.0,
          "N" : {n}
        }},
      }},
      "write" : {{
        "lat_ns" : {{
          "mean" : 0.000000,
          "N" : 0
        }},
      }},
      "minf" : {minf},
      "majf" : {majf},
    }}'''
        text = ("{\n  \"jobs\" : [\n"
                + job.format(n=2048, mean="181.5", minf=1000, majf=2) + ",\n"
                + job.format(n=1024, mean="100.25", minf=500, majf=0)
                + "\n  ]\n}\n")
        awk = os.path.join(HERE, "..", "guest", "fio-own.awk")
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            f.write(text)
            f.flush()
            out = subprocess.run(["awk", "-v", "jobs=2", "-f", awk, f.name],
                                 capture_output=True, text=True)
            self.assertEqual(out.stdout.split(),
                             [f"{2048 * 181.5 + 1024 * 100.25:.0f}", "1500", "2"])
            # a JSON of another job count is not this run's
            bad = subprocess.run(["awk", "-v", "jobs=3", "-f", awk, f.name],
                                 capture_output=True, text=True)
            self.assertNotEqual(bad.returncode, 0)

    def test_crosscheck_writes(self):
        # page_fault2 and 3 write: any fault-around counted is a bug;
        # page_fault4 reads and is held against its Rss like mmap-pread
        def run(w, calls, fa, rss=15360, order=4):
            return dict(label="p", boot=1, workload=w, threads=1, order=order,
                        rep=1, fa_calls=calls, fa_mapped=fa, mapped=rss)
        done, bad = data.crosscheck([run("page_fault2", 0, 0),
                                     run("page_fault3", 0, 0),
                                     run("page_fault4", 960, 14400)])
        self.assertEqual((len(done), bad), (3, []))
        done, bad = data.crosscheck([run("page_fault3", 1, 15),
                                     run("page_fault4", 960, 14000)])
        self.assertEqual(len(bad), 2)
        self.assertIn("a write fault faulted around", bad[0])
        self.assertEqual(fmt.who("page_fault4", 2), "2 tasks")
        self.assertTrue(data.no_order("page_fault2"))
        self.assertFalse(data.no_order("page_fault4"))

    def test_crosscheck_fio(self):
        def run(order, own, children, pages=15360):
            return dict(label="p", boot=1, workload="fio-read", threads=1,
                        order=order, rep=1, fa_calls=900 if order else 0,
                        fa_mapped=13000 if order else 0,
                        mapped=0, pages=pages, minflt=children, majflt=0,
                        prog_minflt=own, prog_majflt=0)
        # fio's own count: at least a fault per window, at most all of
        # fio's (its start-up faults too)
        done, bad = data.crosscheck([run(4, 975, 4000), run(0, 15370, 18500)])
        self.assertEqual((len(done), bad), (2, []))
        done, bad = data.crosscheck([run(4, 500, 4000),	# under a window each
                                     run(4, 3900, 4000),	# not faulting around
                                     run(4, 4100, 4000),	# over fio's all
                                     run(4, -1, 4000)])	# no count
        self.assertEqual(len(bad), 4)
        self.assertIn("fio's own faults 500", bad[0])
        # @ext4-ra: a fault maps a large folio whole, so fio may fault
        # less than once a window; never more than fio's all
        def ra(order, own, children):
            return dict(run(order, own, children), workload="fio-read@ext4-ra")
        done, bad = data.crosscheck([ra(6, 86, 2840), ra(0, 431, 5692)])
        self.assertEqual((len(done), bad), (2, []))
        done, bad = data.crosscheck([ra(6, 2900, 2840)])
        self.assertEqual(len(bad), 1)

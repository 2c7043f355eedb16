# SPDX-License-Identifier: GPL-2.0
# fio's own figures from its JSON (--output-format=json), for sweep-run.sh's
# fio rows: "<I/O ns> <minf> <majf>", each summed over the jobs; the I/O
# time is each lat_ns block's mean x N (the write, trim and sync blocks
# have N 0).  Fails unless there is one minf per job (-v jobs=N) and
# some I/O: then the JSON is not fio's, or fio read nothing.
BEGIN { FS = "[:,]" }
/"minf"/ { m += $2; n++ }
/"majf"/ { j += $2 }
/"lat_ns"/ { lat = 1 }
lat && /"mean"/ { mean = $2 }
lat && /"N"/ { io += mean * $2 }
lat && /}/ { lat = 0 }
END {
	if (n != jobs || io <= 0)
		exit 1
	printf "%.0f %d %d\n", io, m, j
}

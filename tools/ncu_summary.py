#!/usr/bin/env python3
"""One line per kernel name from an Nsight Compute report's raw page (`ncu -i R --page raw --csv`
on stdin): launches, summed duration and share of the report's time, then, from the longest
launch, SM and memory throughput (% of peak), registers, achieved occupancy, issue activity,
eligible warps, cycles per issued instruction and the three largest stall reasons (warps stalled
per issued instruction). Metrics a report lacks print as '-'. Sorted by summed duration, so a
chunk's profile reads as where its time goes.

  ncu -i out/ncu-msm-chunk.ncu-rep --page raw --csv | tools/ncu_summary.py
"""
import collections
import csv
import re
import sys

# (column, header) for the longest launch; raw metric names of SpeedOfLight, LaunchStats,
# Occupancy, SchedulerStats and WarpStateStats.
# Where versions name a metric differently, the first present of the alternatives.
COLUMNS = [
    (["sm__throughput.avg.pct_of_peak_sustained_elapsed"], "SM%"),
    (["gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"], "mem%"),
    (["launch__registers_per_thread"], "regs"),
    (["sm__warps_active.avg.pct_of_peak_sustained_active"], "occ%"),
    (["smsp__issue_active.avg.pct_of_peak_sustained_active",
      "smsp__issue_active.avg.per_cycle_active"], "issue"),
    (["smsp__warps_eligible.avg.per_cycle_active"], "eligible"),
    (["smsp__average_warp_latency_per_inst_issued.ratio",
      "smsp__average_warps_latency_per_inst_issued.ratio"], "cyc/inst"),
]
STALL = re.compile(r"smsp__average_warps_issue_stalled_(\w+?)_per_issue_active\.ratio$")
TO_MS = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}


def short(name):
    """A kernel's name without its return type, namespaces' noise and parameter list."""
    name = re.sub(r"\(.*\)$", "", name.strip())
    name = re.sub(r"^void ", "", name)
    return re.sub(r"cuzk::gpu::(\(anonymous namespace\)::|msm_detail::)?", "", name)


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def main():
    rows = list(csv.reader(sys.stdin))
    if len(rows) < 3:
        print("ncu_summary: no kernels in the report")
        return 1
    head, units = rows[0], rows[1]
    col = {h: i for i, h in enumerate(head)}
    name_i = col.get("Kernel Name")
    dur_i = col.get("gpu__time_duration.sum")
    if name_i is None or dur_i is None:
        print("ncu_summary: no Kernel Name or gpu__time_duration.sum column")
        return 1
    scale = TO_MS.get(units[dur_i], 1.0)
    stalls = [(i, STALL.match(h).group(1)) for i, h in enumerate(head) if STALL.match(h)]
    kernels = collections.OrderedDict()
    for r in rows[2:]:
        if len(r) != len(head):
            continue
        ms = (number(r[dur_i]) or 0.0) * scale
        k = kernels.setdefault(short(r[name_i]), {"n": 0, "ms": 0.0, "top": None, "top_ms": -1})
        k["n"] += 1
        k["ms"] += ms
        if ms > k["top_ms"]:
            k["top"], k["top_ms"] = r, ms
    total = sum(k["ms"] for k in kernels.values()) or 1.0
    print("kernel | launches | ms | share | " + " | ".join(h for _, h in COLUMNS) + " | top stalls")
    for name, k in sorted(kernels.items(), key=lambda kv: -kv[1]["ms"]):
        r = k["top"]
        cells = []
        for alternatives, _ in COLUMNS:
            present = [c for c in alternatives if c in col]
            v = number(r[col[present[0]]]) if present else None
            cells.append("-" if v is None else f"{v:.3g}")
        top = sorted(((number(r[i]) or 0.0, s) for i, s in stalls), reverse=True)[:3]
        stall_text = ", ".join(f"{s} {v:.2g}" for v, s in top if v > 0) or "-"
        print(f"{name[:90]} | {k['n']} | {k['ms']:.3f} | {100 * k['ms'] / total:.1f}% | "
              + " | ".join(cells) + f" | {stall_text}")
    print(f"total {total:.3f} ms over {sum(k['n'] for k in kernels.values())} launches")
    return 0


if __name__ == "__main__":
    sys.exit(main())

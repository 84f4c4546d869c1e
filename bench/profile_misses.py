"""Where the time of a missed target goes: `perf record` of one library doing one benchmark
case of bench/run.py over and over (the same files, the same calls), then perf's split of the
CPU samples by shared object and its top symbols. Issue 19 closes on "which missed, by how
much, and what the profile shows is left"; this gives the profile of every miss.

Setup (imports, making the inputs, the mesh a write writes, one warm-up call) is outside the
recording: the child starts perf's events only then, through perf's control FIFO (`-D -1`,
`--control`). Writes run with sync=False (perf samples CPU; the fdatasync wait of a synced
write is off-CPU and shows in the benchmark's write / floor column, not here). Samples are
taken on every thread of the process (cpu-clock, 1999 Hz); the percentages are shares of all
samples, the reader's worker threads included. Without frame pointers in the Release build the
symbols are self time, not call graphs.

Usage: .venv/bin/python bench/profile_misses.py [--results FILE] [--issue 19] [--only MESH] [--case LABEL]
                                         [--who ours|vtk|meshio|gmsh|copy] [--seconds 3]
Without --case it profiles every (mesh, op, case) the results file lists as a miss of the
issue (meshio++, and VTK too for a "faster than VTK" miss), and writes
bench/results/<results stem>-profiles.md.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

# The child: builds the case's functions with bench/run.py's own code, warms up, then turns
# perf's events on and calls the function until `seconds` have passed.
CHILD = r"""
import os, sys, time
sys.path.insert(0, sys.argv[1])
import run
mesh, op, label, who, seconds = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], float(sys.argv[6])
run.SYNC = False
gm = run.Gmsh()
if op == "read":
    case = [c for c in run.all_read_cases(mesh, label) if c[0] == label][0]
    run.settle_page_cache(run.read_inputs(case[1], case[2]))
    fn = run.read_fns(case, gm)[who]
else:
    case = [c for c in run.write_cases(mesh) if c[0] == label][0]
    fn = run.write_fns(mesh, case, run.Sources(mesh), gm)[0][who]
if fn is None:
    sys.exit(f"{who} has no {op} of {label!r}")
fn()
with open(os.environ["PERF_CTL"], "w") as ctl, open(os.environ["PERF_ACK"]) as ack:
    ctl.write("enable\n"); ctl.flush(); ack.readline()
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds or n < 3:
        fn(); n += 1
    dt = time.perf_counter() - t0
    ctl.write("disable\n"); ctl.flush(); ack.readline()
print(f"CALLS {n} {dt / n:.6f}", flush=True)
"""

LINE = re.compile(r"^\s+([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.+?)\s*$")
DSO_LINE = re.compile(r"^\s+([\d.]+)%\s+(\S+)\s*$")


def profile(mesh: str, op: str, label: str, who: str, seconds: float, top: int = 14) -> dict:
    """perf record of `who` doing the case; {calls, s_per_call, dsos: [(pct, dso)], symbols: [(pct, dso, sym)]}."""
    with tempfile.TemporaryDirectory() as tmp:
        ctl, ack, data = (os.path.join(tmp, n) for n in ("ctl", "ack", "perf.data"))
        os.mkfifo(ctl), os.mkfifo(ack)
        env = dict(os.environ, PERF_CTL=ctl, PERF_ACK=ack)
        r = subprocess.run(["perf", "record", "-q", "-F", "1999", "-D", "-1", f"--control=fifo:{ctl},{ack}", "-o", data, "--",
                            sys.executable, "-c", CHILD, str(HERE), mesh, op, label, who, str(seconds)],
                           capture_output=True, text=True, env=env, timeout=1200)
        calls = re.search(r"CALLS (\d+) ([\d.]+)", r.stdout)
        if r.returncode != 0 or not calls:
            return {"error": (r.stderr.strip() or r.stdout.strip())[-600:]}

        def report(*sort):
            return subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort", ",".join(sort),
                                   "--percent-limit", "0.5"], capture_output=True, text=True).stdout.splitlines()

        dsos = [(float(m[1]), m[2]) for m in map(DSO_LINE.match, report("dso")) if m]
        symbols = [(float(m[1]), m[2], m[3]) for m in map(LINE.match, report("dso", "sym")) if m]
    return {"calls": int(calls[1]), "s_per_call": float(calls[2]), "dsos": dsos[:8], "symbols": symbols[:top]}


def short(sym: str, width: int = 110) -> str:
    sym = re.sub(r"\(anonymous namespace\)::", "", sym)
    return sym if len(sym) <= width else sym[: width - 3] + "..."


def misses(results: dict, issue: int, only: str, case: str) -> dict:
    """{(mesh, op, case): [target descriptions]} of the results' misses of `issue`."""
    out = {}
    for t in results["targets"]:
        if t["source"] != f"#{issue}" or t["status"] != "MISS" or (only and t["mesh"] != only) or (case and t["case"] != case):
            continue
        out.setdefault((t["mesh"], t["op"], t["case"]), []).append(
            f"{t['target']}: {t['value']:.2f} vs {t['cmp']} {t['limit']:.2f} ({t['short_by']:.2f}x short)")
    return out


def markdown(runs: list, results_path: Path, rows: dict, args) -> str:
    lines = [f"# Profiles of the missed targets of issue {args.issue} ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})", "",
             f"- Results profiled: [{results_path.name}]({results_path.name}); machine: {os.cpu_count()} cores, load at start "
             f"{[round(x, 2) for x in os.getloadavg()]}.",
             f"- Command: `bench/profile_misses.py {' '.join(sys.argv[1:])}`; {args.seconds:g} s of calls per case after one warm-up; "
             "perf record -F 1999 (cpu-clock, every thread), self time; writes with sync=False.",
             "- `per call` is the time of one call while recorded (perf adds a few per cent); the results file's medians are the "
             "measurements, this is for the split.", ""]
    for (mesh, op, label), who, prof, why in runs:
        row = rows.get((mesh, op, label), {})
        lines += [f"## {mesh} {op} {label}: {who}", ""]
        lines += [f"- Missed: {w}" for w in why]
        if row:
            lines.append(f"- Results row: meshio++ {row.get('ours', 0):.4f} s, meshio "
                         f"{row['meshio']:.4f} s" if row.get("meshio") else f"- Results row: meshio++ {row.get('ours', 0):.4f} s")
            if row.get("vtk"):
                lines[-1] += f", VTK {row['vtk']:.4f} s"
            if row.get("copy"):
                lines[-1] += f", copy floor {row['copy']:.4f} s"
            if row.get("floor"):
                lines[-1] += f", write floor {row['floor']:.4f} s"
        if "error" in prof:
            lines += [f"- perf failed: `{prof['error']}`", ""]
            continue
        lines += [f"- {prof['calls']} calls, {prof['s_per_call']:.4f} s per call while recorded", "",
                  "| share | shared object |", "|---:|---|"]
        lines += [f"| {p:.1f}% | {d} |" for p, d in prof["dsos"]]
        lines += ["", "| share | shared object | symbol |", "|---:|---|---|"]
        lines += [f"| {p:.1f}% | {d} | `{short(s)}` |" for p, d, s in prof["symbols"]]
        lines.append("")
    return "\n".join(lines) + "\n"


def latest_full() -> Path:
    runs = {p: json.loads(p.read_text()) for p in RESULTS.glob("*.json")}
    full = [p for p, d in runs.items() if isinstance(d, dict) and d.get("meta", {}).get("full")]
    return max(full, key=lambda p: runs[p]["meta"]["date"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", type=Path, default=None, help="a bench/run.py results .json (default: the latest full run)")
    ap.add_argument("--issue", type=int, default=19)
    ap.add_argument("--only", default="", help="one mesh (bracket, cube, skin, grid)")
    ap.add_argument("--case", default="", help="one case label, exactly as in the results")
    ap.add_argument("--who", default=None, help="profile this library (default: meshio++, and VTK for a faster-than-VTK miss)")
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args(argv)
    path = args.results or latest_full()
    results = json.loads(path.read_text())
    rows = {(r["mesh"], r["op"], r["case"]): r for r in results["rows"]}
    todo = misses(results, args.issue, args.only, args.case)
    if args.case and args.only and not todo:
        todo = {(args.only, op, args.case): ["(no miss: profiled on request)"] for op in ("read", "write")
                if (args.only, op, args.case) in rows}
    if not todo:
        sys.exit("bench/profile_misses.py: no missed target matches")
    runs = []
    for key, why in todo.items():
        whos = [args.who] if args.who else ["ours"] + (["vtk"] if any(w.startswith("faster than VTK") for w in why) else [])
        for who in whos:
            print(f"profiling {' '.join(key)} ({who}) ...", flush=True)
            prof = profile(*key, who, args.seconds)
            if "error" in prof:
                print(f"  perf failed: {prof['error']}", flush=True)
            else:
                print(f"  {prof['calls']} calls, {prof['s_per_call']:.4f} s each; top: "
                      + "; ".join(f"{p:.0f}% {short(s, 50)}" for p, _, s in prof["symbols"][:3]), flush=True)
            runs.append((key, who, prof, why))
    out = RESULTS / f"{path.stem}-profiles{'-' + args.only if args.only else ''}{'-' + re.sub(r'[^a-z0-9]+', '-', args.case.lower()).strip('-') if args.case else ''}.md"
    out.write_text(markdown(runs, path, rows, args))
    print(f"wrote {out.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()

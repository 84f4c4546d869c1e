"""bench/readme_table.py (the README's speed table, rendered from a results file of bench/run.py)
and the parts of bench/run.py that decide what a run reports: the targets' PASS / MISS and the
names of partial runs' results files. Synthetic results only: nothing is timed here."""
from __future__ import annotations

import importlib.util
import json
import sys
from argparse import Namespace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


readme_table = _load("readme_table")
run = _load("run")

META = dict(date="2026-12-02 01:00 UTC", host="vm", cores=2, cpu="Test CPU", governor="not visible", load_start=[0.1, 0.2, 0.3],
            load_end=[0.4, 0.5, 0.6], python="3.11", reps=5, budget=1500, full=True, kind="full run", command="bench/run.py",
            versions=dict(meshioplusplus="0.9", commit="abc1234", meshio="5.0.0", vtk="9.1.0", gmsh="4.8.0", numpy="1.24"))


def row(mesh, op, case, ours, meshio=None, vtk=None, gmsh=None, **extra):
    r = dict(mesh=mesh, op=op, case=case, mb=10.0, reps=5, ours=ours, meshio=meshio, vtk=vtk, gmsh=gmsh,
             ratio=meshio / ours if meshio else None, ratio_vtk=vtk / ours if vtk else None, ratio_gmsh=gmsh / ours if gmsh else None)
    r.update(extra)
    return r


def results(rows, full=True, date=META["date"]):
    tg = run.targets(rows)
    return dict(meta=dict(META, full=full, date=date), rows=rows, targets=tg, summary=run.summary(tg))


ROWS = [
    row("bracket", "read", "gmsh 4.1 binary", 0.01, meshio=0.05, vtk=None, gmsh=0.04, fmt="gmsh", copy=0.004),
    row("bracket", "read", "vtu binary zlib", 0.02, meshio=0.06, vtk=0.1, fmt="vtu", copy=0.001),
    row("bracket", "write", "vtu appended raw", 0.02, vtk=0.01, fmt="vtu", floor=0.01),
    row("skin", "read", "vtp binary", 0.5, vtk=1.0, fmt="vtp", copy=0.1),
]


def table_line(text, op, case):
    return next(line for line in text.splitlines() if line.startswith(f"| {op} | {case} |"))


def test_render_rows_blanks_and_tally():
    text = readme_table.render(results(ROWS), "2026-12-02-vm-2cpu.json")
    assert "bench/results/2026-12-02-vm-2cpu.md" in text and "bench/results/2026-12-02-vm-2cpu.json" in text
    # every peer's ratio; VTK lacks Gmsh files: its cell is blank; the floor is time / copy
    assert table_line(text, "read", "gmsh 4.1 binary") == "| read | gmsh 4.1 binary | 10.0 | 0.0100 | 5.0x |  | 4.0x | 2.5x |"
    # meshio and gmsh lack appended-raw VTU writes; VTK is twice as fast here
    assert table_line(text, "write", "vtu appended raw") == "| write | vtu appended raw | 10.0 | 0.0200 |  | 0.5x |  | 2.0x |"
    assert "vtp binary" not in text  # the README quotes the bracket only
    # targets: VTU zlib read 3x < 4x, appended write 2x its floor, slower than VTK: misses
    s = results(ROWS)["summary"]
    assert f"{s['passed']} PASS, {s['missed']} MISS" in text
    assert any("VTU zlib read at least 4x meshio" in m and "1.33x short" in m for m in s["misses"])
    assert any("faster than VTK" in m and "vtu appended raw" in m for m in s["misses"])


def test_targets_pass_and_miss():
    tg = {(t["target"], t["case"]): t for t in run.targets(ROWS)}
    binary = tg[("binary read within 1.5x of copying the file's bytes", "gmsh 4.1 binary")]
    assert binary["status"] == "MISS" and binary["value"] == pytest.approx(2.5) and binary["short_by"] == pytest.approx(2.5 / 1.5)
    assert tg[("binary read at least 3x meshio", "gmsh 4.1 binary")]["status"] == "PASS"
    assert tg[("faster than gmsh", "gmsh 4.1 binary")]["status"] == "PASS"
    assert tg[("VTU zlib read at least 4x meshio", "vtu binary zlib")]["status"] == "MISS"
    assert tg[("binary write within 1.5x of one write call", "vtu appended raw")]["short_by"] == pytest.approx(2.0 / 1.5)
    # no peer, no target: meshio writes no appended VTU, gmsh reads no VTU
    assert ("faster than gmsh", "vtu binary zlib") not in tg
    assert not any(t["case"] == "vtu appended raw" and "meshio" in t["target"] for t in tg.values())
    # VTP is held to VTU's time on the same mesh and encoding (no skin rows here: no target)
    assert not any(t["target"].startswith("VTP at VTU") for t in tg.values())


def test_vtp_is_held_to_the_vtu_time_of_the_same_mesh_and_encoding():
    skin = [row("skin", "read", "vtp binary", 0.050, vtk=0.40, fmt="vtp"), row("skin", "read", "vtu binary", 0.052, vtk=0.50, fmt="vtu"),
            row("skin", "write", "vtp ascii", 0.120, vtk=0.40, fmt="vtp"), row("skin", "write", "vtu ascii", 0.100, vtk=0.40, fmt="vtu"),
            row("skin", "read", "vtp ascii", 0.150, vtk=0.70, fmt="vtp"),  # no VTU ascii read in this run: no target
            row("bracket", "read", "vtu binary", 0.010, vtk=0.10, fmt="vtu")]  # another mesh: never the reference
    tg = [t for t in run.targets(skin) if t["target"].startswith("VTP at VTU")]
    assert [(t["op"], t["case"], t["status"]) for t in tg] == [("read", "vtp binary", "PASS"), ("write", "vtp ascii", "MISS")]
    assert tg[0]["value"] == pytest.approx(0.050 / 0.052) and tg[1]["value"] == pytest.approx(1.2)


def test_latest_full_skips_partial_and_old_files(tmp_path):
    (tmp_path / "2026-11-29-vm-2cpu.json").write_text(json.dumps([{"mesh": "bracket"}]))  # the old layout
    (tmp_path / "a.json").write_text(json.dumps(results(ROWS, date="2026-12-01 10:00 UTC")))
    (tmp_path / "b.json").write_text(json.dumps(results(ROWS, date="2026-12-02 10:00 UTC")))
    (tmp_path / "c-quick.json").write_text(json.dumps(results(ROWS, full=False, date="2026-12-03 10:00 UTC")))
    assert readme_table.latest_full(tmp_path).name == "b.json"
    assert readme_table.latest_full(tmp_path / "absent") is None


def test_update_readme_replaces_only_between_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{readme_table.BEGIN}\nold table\n{readme_table.END}\nrest\n")
    data = tmp_path / "2026-12-02-vm-2cpu.json"
    data.write_text(json.dumps(results(ROWS)))
    readme_table.update_readme(readme, data)
    text = readme.read_text()
    assert text.startswith(f"intro\n{readme_table.BEGIN}\n") and text.endswith(f"{readme_table.END}\nrest\n")
    assert "old table" not in text and "| read | gmsh 4.1 binary |" in text
    readme.write_text("no markers\n")
    with pytest.raises(ValueError, match="bench-table:begin"):
        readme_table.update_readme(readme, data)


def test_repository_readme_has_the_markers():
    text = (ROOT / "README.md").read_text()
    assert text.count(readme_table.BEGIN) == 1 and text.count(readme_table.END) == 1
    assert text.index(readme_table.BEGIN) < text.index(readme_table.END)


@pytest.mark.parametrize("flags, suffix", [(dict(), ""), (dict(quick=True), "-quick"), (dict(only="cube"), "-only-cube"),
                                           (dict(case="vtu binary"), "-case-vtu-binary"), (dict(no_sync=True), "-nosync")])
def test_partial_runs_never_take_the_full_runs_name(flags, suffix):
    args = Namespace(**dict(dict(quick=False, only=None, case="", no_sync=False), **flags))
    stem = run.results_stem(args)
    assert stem.endswith(f"cpu{suffix}")


def test_a_failing_peer_is_a_blank_and_a_failing_meshioplusplus_a_failed_case():
    calls = []
    fns = {"ours": lambda: calls.append("ours"), "meshio": lambda: 1 / 0}
    row = run.timed_row("bracket", "read", "x", fns, 4, run.Clock(0, 1, 0.0, per_case=1e9), 1.0)
    assert row["meshio"] is None and row["ratio"] is None and "ZeroDivisionError" in row["failed"]["meshio"]
    assert row["reps"] == 4 and calls.count("ours") == 5  # warm-up + 4 repetitions
    with pytest.raises(run.CaseFailed, match="meshio\\+\\+ failed"):
        run.timed_row("bracket", "read", "x", {"ours": lambda: [][1]}, 3, run.Clock(0, 1, 0.0), 1.0)

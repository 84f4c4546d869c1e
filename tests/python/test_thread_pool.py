"""The threads meshio++ leaves in a process (src/core/parallel.cpp, docs/python.md): a read on
one thread starts none; reads on several start one pool of at most os.cpu_count() - 1
threads, the same for every later read; a child of fork() reads on threads of its own.
Each case runs in a fresh interpreter, whose threads are its own to count."""
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import os, sys
    import numpy as np
    import meshioplusplus as mio

    def threads():
        return len(os.listdir("/proc/self/task"))

    n = 200_000  # two 65536-row ranges and more: the tetrahedra are decoded on 2 threads
    rng = np.random.default_rng(7)
    mesh = mio.Mesh(rng.random((n, 3)), [("tetra", rng.integers(0, n, size=(n, 4)))])
    path = sys.argv[1]
    mio.write(path, mesh, threads=1, sync=False)

    def same(m):
        return np.array_equal(m.cells[0].data, mesh.cells[0].data) and np.array_equal(m.points, mesh.points)

    start = threads()
    ok = same(mio.read(path, threads=1))
    after_one_thread = threads()
    ok = ok and same(mio.read(path, threads=2))
    after_first = threads()
    for _ in range(20):
        ok = ok and same(mio.read(path, threads=2))
    after_many = threads()
    pid = os.fork()
    if pid == 0:
        os._exit(0 if same(mio.read(path, threads=2)) and same(mio.read(path, threads=2)) else 1)
    _, status = os.waitpid(pid, 0)
    print(start, after_one_thread, after_first, after_many, int(ok), os.waitstatus_to_exitcode(status), os.cpu_count())
""")


def test_reads_on_several_threads_share_one_pool_that_a_forked_child_does_without(tmp_path):
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "mesh.lb8.ugrid")], capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    start, after_one_thread, after_first, after_many, ok, child, cpus = map(int, out.stdout.split())
    assert ok == 1, "a read gave other arrays than the mesh written"
    assert after_one_thread == start, "a read on one thread left threads behind"
    assert start < after_first <= start + max(cpus - 1, 0) or cpus == 1
    assert after_many == after_first, "later reads started threads of their own that stayed"
    assert child == 0, "the child of fork() failed its reads"

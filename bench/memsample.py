"""Peak anonymous memory of a stretch of code, for the benchmarks (bench/scaling.py).

Linux keeps a high-water mark of the whole resident set (VmHWM) but none of anonymous
memory alone, and the resident set of a read also holds the file's page-cache pages when
a reader maps the file. So a thread samples ``RssAnon`` from ``/proc/self/status`` every
``interval`` seconds (0.5 ms by default) while the code runs; the readers release the GIL
while they decode, so the sampler keeps running. A spike shorter than the interval can be
missed: big buffers take far longer than that to fill, so the peak of a large read is not.
Kernel doc: https://docs.kernel.org/filesystems/proc.html (table 1-2, /proc/PID/status).
"""
from __future__ import annotations

import threading

STATUS = "/proc/self/status"


def status_bytes(text: str, key: str) -> int:
    """The value of ``key`` (``RssAnon``, ``VmHWM``, ...) in the text of /proc/PID/status,
    in bytes (the file says kB). ValueError when the key is missing or not in kB."""
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name == key:
            parts = rest.split()
            if len(parts) != 2 or parts[1] != "kB" or not parts[0].isdigit():
                raise ValueError(f"{STATUS}: unexpected {key} line {line!r}")
            return int(parts[0]) * 1024
    raise ValueError(f"{STATUS}: no {key} line")


def read_status(key: str, path: str = STATUS) -> int:
    with open(path) as f:
        return status_bytes(f.read(), key)


class AnonPeak:
    """``with AnonPeak() as p: work()`` -> ``p.base`` (RssAnon before), ``p.peak`` (the
    highest RssAnon seen, the samples at entry and exit included) and ``p.growth``
    (peak - base), in bytes."""

    def __init__(self, interval: float = 0.0005, path: str = STATUS):
        self.interval, self.path = interval, path
        self.base = self.peak = self.samples = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _sample(self) -> None:
        self.peak = max(self.peak, read_status("RssAnon", self.path))
        self.samples += 1

    def _poll(self) -> None:
        while not self._done.is_set():
            self._sample()
            self._done.wait(self.interval)

    def __enter__(self) -> "AnonPeak":
        self.base = self.peak = read_status("RssAnon", self.path)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()
        self._sample()

    @property
    def growth(self) -> int:
        return self.peak - self.base

"""Finding a process's children from /proc (Linux), for tests that kill or count them.

psutil is not a dependency; /proc gives what the fault tests need. Tests that use these
helpers skip where /proc is missing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

HAS_PROC = Path("/proc/self/stat").exists()


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: split after it.
    return text.rsplit(")", 1)[1].split()


def children(pid: int) -> list[int]:
    """Pids whose parent is ``pid`` (zombies excluded)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat_fields(int(entry))
        if fields and int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return sorted(found)


def cmdline(pid: int) -> str:
    """The process's command line ('' once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def spawned_workers(pid: int) -> list[int]:
    """Children of ``pid`` started by multiprocessing's spawn (not its resource tracker)."""
    return [c for c in children(pid) if "spawn_main" in cmdline(c)]


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not reaped, counts as gone)."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def wait_for(predicate: Callable[[], object], timeout_s: float, poll_s: float = 0.05) -> object:
    """Poll ``predicate`` until it returns something truthy; return it (or the last falsy)."""
    deadline = time.monotonic() + timeout_s
    value = predicate()
    while not value and time.monotonic() < deadline:
        time.sleep(poll_s)
        value = predicate()
    return value

"""Each server process capped at a share of one core, in a cgroup of its own.

A fair measure of how throughput grows from one server process to two needs a core for each
server and one for the load; a machine with fewer cores can still give each server a slice of
the same size (`--server-share 0.3`: 30% of one core each), so that one process and two are
compared at the same CPU per process, with room left for the load and the database. The cap is
the kernel's CPU bandwidth control: cgroup v1's `cpu.cfs_quota_us` or cgroup v2's `cpu.max`.

A server joins its group before it runs a line of Python (a shell writes its own process id
into the group, then becomes the server), so every thread it starts is capped too.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PERIOD_US = 10_000
"""The period the quota is spent over: 10 ms, so a capped server stalls in short slices (the
kernel's default of 100 ms would hold a request back for up to 70 ms at a share of 0.3)."""
MIN_QUOTA_US = 1_000
"""The smallest quota the kernel takes."""
MOUNTS = Path("/proc/self/mounts")
OWN_GROUPS = Path("/proc/self/cgroup")


class CannotCap(RuntimeError):
    """This machine gives no way to cap a process's CPU (no cpu controller, or no right to)."""


@dataclass(frozen=True)
class CpuController:
    """Where this process's new CPU groups are made, and the cgroup version that makes them."""

    directory: Path
    version: int


def find_controller(mounts: str, own_groups: str) -> CpuController | None:
    """The CPU controller of a `/proc/self/mounts` and `/proc/self/cgroup` pair: cgroup v1's
    `cpu` hierarchy when mounted, else the v2 hierarchy; None when neither is mounted."""
    v1 = v2 = None
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) < 4:
            continue
        where, kind, options = fields[1], fields[2], fields[3].split(",")
        if kind == "cgroup" and "cpu" in options:
            v1 = Path(where)
        elif kind == "cgroup2" and v2 is None:
            v2 = Path(where)
    paths = _own_paths(own_groups)
    if v1 is not None and "v1" in paths:
        return CpuController(_inside(v1, paths["v1"]), 1)
    if v2 is not None and "v2" in paths:
        return CpuController(_inside(v2, paths["v2"]), 2)
    return None


def _own_paths(own_groups: str) -> dict[str, str]:
    """This process's group in the v1 `cpu` hierarchy and in the v2 one (`/proc/self/cgroup`
    lines: `4:cpu,cpuacct:/a/b` for v1, `0::/a/b` for v2)."""
    found = {}
    for line in own_groups.splitlines():
        number, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            found["v1"] = path
        elif number == "0" and controllers == "":
            found["v2"] = path
    return found


def _inside(mount: Path, path: str) -> Path:
    return mount / path.lstrip("/")


def this_machines_controller() -> CpuController:
    """This machine's CPU controller (raise CannotCap, saying why, when there is none)."""
    try:
        found = find_controller(MOUNTS.read_text(), OWN_GROUPS.read_text())
    except OSError as error:
        raise CannotCap(f"cannot read this process's cgroups: {error}") from error
    if found is None:
        raise CannotCap("no cgroup CPU controller is mounted on this machine")
    return found


def quota_us(share: float) -> int:
    """The quota per period of a share of one core."""
    if not 0 < share <= 1:
        raise ValueError(f"a share of one core is above 0 and at most 1, not {share}")
    return max(MIN_QUOTA_US, round(share * PERIOD_US))


@contextmanager
def capped_group(controller: CpuController, name: str, share: float) -> Iterator[Path]:
    """A new group `name` capped at `share` of one core while the block runs; yields the file
    a process writes its id into to join it. The group is removed after (its processes must
    have ended by then)."""
    group = controller.directory / name
    try:
        if controller.version == 2:
            _enable_cpu_below(controller.directory)
        group.mkdir()
        if controller.version == 1:
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(quota_us(share)))
        else:
            (group / "cpu.max").write_text(f"{quota_us(share)} {PERIOD_US}")
    except OSError as error:
        _remove(group)
        raise CannotCap(f"cannot make a capped cgroup at {group}: {error}") from error
    try:
        yield group / "cgroup.procs"
    finally:
        _remove(group)


def _enable_cpu_below(directory: Path) -> None:
    """cgroup v2 hands the cpu controller down to new groups only once asked."""
    control = directory / "cgroup.subtree_control"
    if "cpu" not in control.read_text().split():
        control.write_text("+cpu")


def _remove(group: Path, attempts: int = 50) -> None:
    """Remove the group; a process that has just ended may hold it for a moment."""
    for _ in range(attempts):
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)


def joining(procs: Path, command: list[str]) -> list[str]:
    """`command`, run by a shell that first writes its own id into `procs`: the process
    joins the group before the command starts, then becomes it (`exec`: the same id)."""
    return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', str(procs), *command]

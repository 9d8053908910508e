"""`--server-share`: finding the cgroup CPU controller, making a capped group, and a process
joining it before its command runs (benchmarks/http/cpu_caps.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from deaddrop.benchmarks.http.cpu_caps import (
    PERIOD_US,
    CannotCap,
    CpuController,
    capped_group,
    find_controller,
    joining,
    quota_us,
    this_machines_controller,
)

V1_MOUNTS = """\
tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0
cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0
cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
"""
V1_GROUPS = "9:memory:/job\n4:cpu,cpuacct:/user.slice/job\n0::/user.slice/job\n"
V2_MOUNTS = "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec 0 0\n"


def test_cgroup_v1s_cpu_hierarchy_is_found_at_this_processs_own_group() -> None:
    found = find_controller(V1_MOUNTS, V1_GROUPS)
    assert found == CpuController(Path("/sys/fs/cgroup/cpu,cpuacct/user.slice/job"), 1)


def test_cgroup_v2_is_used_when_no_v1_cpu_hierarchy_is_mounted() -> None:
    found = find_controller(V2_MOUNTS, "0::/user.slice/job\n")
    assert found == CpuController(Path("/sys/fs/cgroup/user.slice/job"), 2)


def test_no_controller_without_a_cgroup_mount() -> None:
    assert find_controller("proc /proc proc rw 0 0\n", "0::/\n") is None
    # Mounted, but this process is in none of its groups (another namespace's view).
    assert find_controller(V2_MOUNTS, "4:cpu:/a\n") is None


def test_a_share_is_a_quota_of_the_short_period() -> None:
    assert quota_us(0.3) == 3_000 and quota_us(1) == PERIOD_US
    assert quota_us(0.01) == 1_000  # the least the kernel takes
    for wrong in (0, -0.5, 1.5):
        with pytest.raises(ValueError):
            quota_us(wrong)


def test_a_v1_group_is_made_capped_and_removed_after(tmp_path: Path) -> None:
    controller = CpuController(tmp_path, 1)
    with capped_group(controller, "server", 0.25) as procs:
        group = tmp_path / "server"
        assert procs == group / "cgroup.procs"
        assert (group / "cpu.cfs_period_us").read_text() == str(PERIOD_US)
        assert (group / "cpu.cfs_quota_us").read_text() == "2500"
        for written in group.iterdir():  # the kernel's own files are no files to remove
            written.unlink()
    assert not (tmp_path / "server").exists()


def test_a_v2_group_asks_for_the_cpu_controller_below_first(tmp_path: Path) -> None:
    (tmp_path / "cgroup.subtree_control").write_text("memory\n")
    with capped_group(CpuController(tmp_path, 2), "server", 0.5):
        assert (tmp_path / "cgroup.subtree_control").read_text() == "+cpu"
        assert (tmp_path / "server" / "cpu.max").read_text() == f"5000 {PERIOD_US}"
        (tmp_path / "server" / "cpu.max").unlink()


def test_a_group_that_cannot_be_made_says_where_and_why(tmp_path: Path) -> None:
    missing = CpuController(tmp_path / "no-such-hierarchy", 1)
    with pytest.raises(CannotCap, match="no-such-hierarchy"), capped_group(missing, "x", 0.5):
        pass


def test_the_process_joins_before_its_command_runs_under_the_same_id(tmp_path: Path) -> None:
    procs = tmp_path / "cgroup.procs"
    command = [sys.executable, "-c", "import os; print(os.getpid())"]
    done = subprocess.run(joining(procs, command), capture_output=True, text=True, check=True)
    assert procs.read_text().strip() == done.stdout.strip()


def _real_controller() -> CpuController:
    try:
        controller = this_machines_controller()
    except CannotCap as error:
        pytest.skip(f"no cgroup CPU controller here: {error}")
    if not os.access(controller.directory, os.W_OK):
        pytest.skip(f"cgroups not writable here ({controller.directory}): needs root")
    return controller


def test_a_real_cap_holds_a_busy_process_to_its_share() -> None:
    """On this machine's own cgroups: a busy loop capped at a fifth of a core for a second
    uses well under a second of CPU (uncapped, on a free core, it would use all of it)."""
    controller = _real_controller()
    busy = "import time\nend = time.monotonic() + 1.5\nwhile time.monotonic() < end: pass\n"
    try:
        with capped_group(controller, f"deaddrop-test-{os.getpid()}", 0.2) as procs:
            before, began = _children_cpu(), time.monotonic()
            process = subprocess.Popen(joining(procs, [sys.executable, "-c", busy]))
            process.wait(timeout=60)
            wall, used = time.monotonic() - began, _children_cpu() - before
    except CannotCap as error:
        pytest.skip(f"cgroups not usable here: {error}")
    assert process.returncode == 0
    # At most its share of the wall time, and a margin for the interpreter's start.
    assert used <= 0.2 * wall + 0.5, (used, wall)


def _children_cpu() -> float:
    """The CPU seconds of this process's ended children so far."""
    times = os.times()
    return times.children_user + times.children_system

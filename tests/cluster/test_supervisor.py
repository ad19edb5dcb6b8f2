"""`python -m bot cluster` with real processes (issue 17, traffic): the children are a tiny
stand-in (`--command`) that records its shard settings, so no Discord is needed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, os, signal, sys, time
out, mode = sys.argv[1], sys.argv[2]
record = {"pid": os.getpid(), "count": os.environ["STOPPA_SHARD_COUNT"],
          "ids": os.environ["STOPPA_SHARD_IDS"]}

def log(event):
    with open(os.path.join(out, f"{os.getpid()}.{event}"), "w") as fh:
        json.dump({**record, "event": event}, fh)

def stop(signum, frame):
    log("stopped-" + signal.Signals(signum).name)
    sys.exit(0)

log("started")
first = record["ids"].split(",")[0].split("-")[0] == "0"
if mode == "crash-first" and first:
    sys.exit(1)
if mode == "bad-setting-first" and first:
    sys.exit(2)
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
else:
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
while True:
    time.sleep(0.05)
"""


class Cluster:
    """A running `python -m bot cluster` and what its children wrote."""

    def __init__(self, tmp_path: Path, mode: str, *options: str) -> None:
        self.out = tmp_path / "out"
        self.out.mkdir()
        script = tmp_path / "child.py"
        script.write_text(CHILD)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
        self.log = tmp_path / "cluster.log"
        self.stderr = ""
        with self.log.open("w") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot", "cluster", "--command",
                 f"{sys.executable} {script} {self.out} {mode}", *options],
                cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
                stdout=log, stderr=subprocess.STDOUT,
            )

    def stderr_so_far(self) -> str:
        return self.log.read_text()

    def records(self, event: str) -> list[dict[str, Any]]:
        found = []
        for path in sorted(self.out.glob(f"*.{event}*")):
            try:
                found.append(json.loads(path.read_text()))
            except json.JSONDecodeError:  # being written
                continue
        return found

    def wait_for(self, what: Callable[[], bool], timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not what():
            if self.proc.poll() is not None:
                raise AssertionError(f"cluster exited early: {self.stderr_so_far()}")
            if time.monotonic() > deadline:
                raise AssertionError("timed out")
            time.sleep(0.05)

    def stop(self, sig: signal.Signals = signal.SIGTERM, timeout: float = 20.0) -> int:
        self.proc.send_signal(sig)
        self.proc.wait(timeout)
        self.stderr = self.stderr_so_far()
        return self.proc.returncode


@pytest.fixture
def clusters() -> Iterator[list[Cluster]]:
    made: list[Cluster] = []
    yield made
    for cluster in made:  # never leave a process behind, even when a test failed
        if cluster.proc.poll() is None:
            cluster.proc.kill()
            cluster.proc.wait()
        for record in cluster.records("started"):
            if alive(int(record["pid"])):
                os.kill(int(record["pid"]), signal.SIGKILL)


def start(clusters: list[Cluster], tmp_path: Path, mode: str, *options: str) -> Cluster:
    cluster = Cluster(tmp_path, mode, *options)
    clusters.append(cluster)
    return cluster


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not yet reaped, does not count)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_shards_are_split_and_a_stop_signal_stops_every_process(
    tmp_path: Path, clusters: list[Cluster], sig: signal.Signals
) -> None:
    cluster = start(clusters, tmp_path, "serve", "--processes", "3", "--shards", "8")
    cluster.wait_for(lambda: len(cluster.records("started")) == 3)
    started = cluster.records("started")
    assert sorted(str(r["ids"]) for r in started) == ["0-2", "3-5", "6-7"]
    assert {r["count"] for r in started} == {"8"}
    assert cluster.stop(sig) == 0
    stopped = cluster.records("stopped")
    assert sorted(str(r["pid"]) for r in stopped) == sorted(str(r["pid"]) for r in started)
    assert {r["event"] for r in stopped} == {f"stopped-{sig.name}"}  # the signal forwarded
    assert not any(alive(int(r["pid"])) for r in started)


def test_a_killed_process_is_restarted_with_the_same_shards(
    tmp_path: Path, clusters: list[Cluster]
) -> None:
    cluster = start(clusters, tmp_path, "serve", "--processes", "2", "--shards", "4",
                    "--restart-delay", "0.1")
    cluster.wait_for(lambda: len(cluster.records("started")) == 2)
    victim = next(r for r in cluster.records("started") if r["ids"] == "2-3")
    os.kill(int(victim["pid"]), signal.SIGKILL)
    cluster.wait_for(lambda: len(cluster.records("started")) == 3)
    again = [r for r in cluster.records("started") if r["ids"] == "2-3"]
    assert len(again) == 2 and again[0]["pid"] != again[1]["pid"]
    assert [r["ids"] for r in cluster.records("started")].count("0-1") == 1  # untouched
    assert cluster.stop() == 0
    # it had run less than 10 s, so the delay doubled once
    assert "(shards 2-3 of 4) was ended by SIGKILL after" in cluster.stderr
    assert "restarting in 0.2s" in cluster.stderr
    assert len(cluster.records("stopped")) == 2


def test_a_process_that_dies_at_once_is_given_up_and_the_others_keep_running(
    tmp_path: Path, clusters: list[Cluster]
) -> None:
    cluster = start(clusters, tmp_path, "crash-first", "--processes", "2", "--shards", "2",
                    "--restart-delay", "0.05", "--give-up-after", "3")
    cluster.wait_for(lambda: "not restarted" in cluster.stderr_so_far())
    time.sleep(0.3)  # had it been restarted again, a fourth start would be recorded now
    firsts = [r for r in cluster.records("started") if r["ids"] == "0"]
    assert len(firsts) == 3
    others = [r for r in cluster.records("started") if r["ids"] == "1"]
    assert len(others) == 1 and alive(int(others[0]["pid"]))
    assert cluster.stop() == 1  # a given-up process makes the cluster's exit a failure
    assert "process 0 (shards 0 of 2) died 3 times in a row" in cluster.stderr
    assert "(last: exited with code 1)" in cluster.stderr


def test_a_bad_setting_is_not_restarted(tmp_path: Path, clusters: list[Cluster]) -> None:
    cluster = start(clusters, tmp_path, "bad-setting-first", "--processes", "2",
                    "--restart-delay", "0.05")
    cluster.wait_for(lambda: "not restarted" in cluster.stderr_so_far())
    time.sleep(0.3)
    assert [r["ids"] for r in cluster.records("started")].count("0") == 1
    assert cluster.stop() == 1
    assert "a missing token or a bad setting" in cluster.stderr


def test_a_process_that_ignores_sigterm_is_killed_after_the_stop_timeout(
    tmp_path: Path, clusters: list[Cluster]
) -> None:
    cluster = start(clusters, tmp_path, "stubborn", "--processes", "2", "--stop-timeout", "0.5")
    cluster.wait_for(lambda: len(cluster.records("started")) == 2)
    began = time.monotonic()
    assert cluster.stop() == 0
    assert 0.5 <= time.monotonic() - began < 10
    assert cluster.stderr.count("still running 0.5s after SIGTERM: killed") == 2
    assert not any(alive(int(r["pid"])) for r in cluster.records("started"))


@pytest.mark.parametrize(("args", "words"), [
    (["--processes", "4", "--shards", "2"], "4 processes need at least 4 shards"),
    (["--processes", "0"], "at least 1"),
])
def test_bad_options_are_refused_in_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
    proc = subprocess.run([sys.executable, "-m", "bot", "cluster", "--command", "true", *args],
                          cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert words in proc.stderr


def test_without_a_token_the_bot_cluster_does_not_start(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
    proc = subprocess.run([sys.executable, "-m", "bot", "cluster", "--processes", "2"],
                          cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr


def test_a_command_that_cannot_start_is_reported_and_the_cluster_ends(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "STOPPA_"))}
    proc = subprocess.run([sys.executable, "-m", "bot", "cluster", "--processes", "2",
                           "--command", str(tmp_path / "no-such-program")],
                          cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.count("could not start") == 2
    assert "No such file or directory; not restarted" in proc.stderr


def test_restart_delays_double_up_to_the_cap() -> None:
    from bot.cluster.supervisor import RestartPolicy, describe_exit

    rule = RestartPolicy(first_delay=1.0, max_delay=60.0)
    assert [rule.delay(n) for n in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert describe_exit(-9) == "was ended by SIGKILL"
    assert describe_exit(3) == "exited with code 3"

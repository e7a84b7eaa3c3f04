"""`python -m sowing.distributed match` on a local Ray cluster started here: the same report
and the same records as `sow match` with the same arguments."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a throwaway local cluster
import ray  # noqa: E402

from sowing import distributed  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


MATCHES = [
    ["--p1", "level:2", "--p2", "greedy", "--games", "6", "--nodes", "2000", "--seed", "3"],
    ["--game", "ayoayo", "--p1", "level:1", "--p2", "random", "--games", "4", "--nodes", "500"],
    ["--game", "hoyito-iii", "--p1", "greedy", "--p2", "level:1", "--games", "2",
     "--rounds", "2", "--nodes", "500", "--balance", "any"],
    ["--game", "hoyito-ii", "--pits", "12", "--p1", "greedy", "--p2", "random", "--games", "2",
     "--depth", "1", "--opening-plies", "2"],
]


@pytest.mark.parametrize("arguments", MATCHES)
def test_same_report_and_records_as_sow_match(arguments, sow, tmp_path, capsys, monkeypatch):
    ours, theirs = tmp_path / "ray", tmp_path / "sow"
    ours.mkdir()
    theirs.mkdir()
    monkeypatch.chdir(ours)
    assert distributed.main(["match", *arguments, "--out", "records"]) == 0
    report = capsys.readouterr().out
    expected = subprocess.run(
        [sow, "match", *arguments, "--out", "records", "--quiet"],
        cwd=theirs, capture_output=True, text=True, check=True,
    ).stdout
    assert report == expected
    names = sorted(p.name for p in (theirs / "records").iterdir())
    assert names and names == sorted(p.name for p in (ours / "records").iterdir())
    for name in names:
        assert (ours / "records" / name).read_text() == (theirs / "records" / name).read_text()


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--p1", "chess", "--p2", "random"], "--p1: "),
        (["--p1", "random", "--p2", "engine:sow engine"], "external engines"),
        (["--p1", "random", "--p2", "random", "--game", "ayoayo", "--casa-rows", "any"],
         "casa-rows is not an option of ayoayo"),
        (["--p1", "random", "--p2", "random", "--rounds", "2"], "--rounds plays Hoyito III"),
        (["--p1", "random", "--p2", "random", "--balance", "lots"], "--balance"),
    ],
)
def test_bad_arguments(arguments, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert distributed.main(["match", *arguments, "--games", "2"]) == 2
    assert message in capsys.readouterr().err

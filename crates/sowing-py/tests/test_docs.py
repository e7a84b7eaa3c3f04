"""The Python examples of docs/python.md run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import sowing
import sowing.benchmark
import sowing.elo
import sowing.gym
import sowing.openspiel
import sowing.pettingzoo
import sowing.render
import sowing.tables

DOC = Path(__file__).resolve().parents[3] / "docs" / "python.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_doc_has_its_examples():
    assert len(BLOCKS) == 10


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index, capsys):
    exec(compile(BLOCKS[index], f"docs/python.md example {index + 1}", "exec"), {})
    capsys.readouterr()


@pytest.mark.parametrize(
    "module", [sowing, sowing.gym, sowing.pettingzoo, sowing.openspiel, sowing.tables, sowing.render,
               sowing.benchmark, sowing.elo])
def test_docstring_examples(module, tmp_path):
    failed, attempted = doctest.testmod(module, extraglobs={"directory": tmp_path})
    assert attempted > 0 and failed == 0

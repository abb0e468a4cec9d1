"""`simulate --ray` without Ray, or with a cluster that cannot be reached: a clear message and exit code 2,
never a traceback (these run without the [ray] extra; tests/test_ray.py runs a real local instance)."""
from __future__ import annotations

import sys

import pytest

from interpreter.cli import main
from interpreter.harness import batch


@pytest.fixture(autouse=True)
def _local_afterwards():
    yield
    batch.use_local()


def test_without_ray_installed(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)      # import ray → ImportError
    assert main(["simulate", "wien", "--deals", "3", "--ray"]) == 2
    err = capsys.readouterr().err
    assert "--ray needs Ray" in err and "stichwort[ray]" in err and "Traceback" not in err
    assert batch._BACKEND is None


def test_a_cluster_that_cannot_be_reached(monkeypatch, capsys):
    import types

    import interpreter.harness.distributed as dist

    monkeypatch.setitem(sys.modules, "ray", types.ModuleType("ray"))

    def refuse(address):
        raise ConnectionError(f"nothing listens at {address}")

    monkeypatch.setattr(dist, "connect", refuse)
    assert main(["simulate", "wien", "--deals", "3", "--ray", "10.0.0.1:6379"]) == 2
    err = capsys.readouterr().err
    assert "cannot start or reach Ray at 10.0.0.1:6379" in err and "Traceback" not in err
    assert batch._BACKEND is None

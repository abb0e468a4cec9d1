"""Shared pytest options."""
from __future__ import annotations

import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite the golden files of tests/diagnostics/cases instead of comparing with them "
                          "(the same as STICHWORT_UPDATE_GOLDENS=1)")


@pytest.fixture
def update_goldens(request) -> bool:
    """True when golden files should be rewritten rather than compared."""
    return bool(request.config.getoption("--update-goldens")) or os.environ.get("STICHWORT_UPDATE_GOLDENS") == "1"


@pytest.fixture(params=("generated", "interpreter"))
def engine(request, monkeypatch) -> str:
    """Run the test under each backend: the generated code (the default) and the reference interpreter
    (STICHWORT_ENGINE=interpreter)."""
    if request.param == "interpreter":
        monkeypatch.setenv("STICHWORT_ENGINE", "interpreter")
    else:
        monkeypatch.delenv("STICHWORT_ENGINE", raising=False)
    return request.param

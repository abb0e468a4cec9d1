"""The cache of compiled generated modules: bounded, least recently used first, and off on request."""
from __future__ import annotations

import os
import time

from interpreter.codegen import cache


def _entry(where, name: str, size: int, age: float):
    path = where / name
    path.write_bytes(b"x" * size)
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_pruning_removes_the_least_recently_used_down_to_three_quarters(tmp_path):
    old = [_entry(tmp_path, f"old{i}.code", 100, 1000 - i) for i in range(6)]
    new = [_entry(tmp_path, f"new{i}.code", 100, 10 - i) for i in range(4)]
    gone = cache.prune(tmp_path, limit=800)          # 1000 bytes held: down to 600 at most
    assert sorted(gone) == sorted(old[:4])
    assert sorted(tmp_path.iterdir()) == sorted(old[4:] + new)


def test_pruning_leaves_a_folder_within_its_limit_alone(tmp_path):
    kept = [_entry(tmp_path, f"e{i}.code", 100, i) for i in range(8)]
    assert cache.prune(tmp_path, limit=800) == []
    assert sorted(tmp_path.iterdir()) == sorted(kept)


def test_pruning_removes_only_stale_temporary_files(tmp_path):
    stale = _entry(tmp_path, "a.tmp", 10, cache.STALE + 60)
    fresh = _entry(tmp_path, "b.tmp", 10, 5)
    other = _entry(tmp_path, "notes.txt", 10, cache.STALE + 60)
    assert cache.prune(tmp_path) == [stale]
    assert sorted(tmp_path.iterdir()) == sorted([fresh, other])


def test_a_missing_folder_is_not_an_error(tmp_path):
    assert cache.prune(tmp_path / "none") == []


def test_an_entry_read_is_kept_before_one_not_read(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("STICHWORT_NO_CACHE", raising=False)
    cache.compiled("A = 1\n", "<a>")
    cache.compiled("B = 2\n", "<b>")
    where = cache.folder()
    a, b = (where / (cache.key(src) + ".code") for src in ("A = 1\n", "B = 2\n"))
    for path in (a, b):
        os.utime(path, (time.time() - 500, time.time() - 500))
    exec(cache.compiled("A = 1\n", "<a>"), {})        # read: marked as used
    assert a.stat().st_mtime > b.stat().st_mtime + 400
    assert cache.prune(where, limit=a.stat().st_size + b.stat().st_size - 1) == [b]
    assert a.is_file()


def test_a_new_entry_prunes_a_full_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("STICHWORT_NO_CACHE", raising=False)
    where = cache.folder()
    where.mkdir(parents=True)
    old = [_entry(where, f"{i:064x}.code", 1000, 1000 - i) for i in range(10)]
    monkeypatch.setattr(cache, "LIMIT", 4000)
    monkeypatch.setattr(cache, "_STORED", 0)          # this process's first new entry
    ns: dict = {}
    exec(cache.compiled("C = 3\n", "<c>"), ns)
    assert ns["C"] == 3
    left = sorted(where.iterdir())
    assert where / (cache.key("C = 3\n") + ".code") in left
    assert sum(p.stat().st_size for p in left) <= 3000
    assert old[0] not in left and old[-1] in left


def test_no_cache_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("STICHWORT_NO_CACHE", "1")
    ns: dict = {}
    exec(cache.compiled("D = 4\n", "<d>"), ns)
    assert ns["D"] == 4
    assert not cache.folder().exists()
    from interpreter.cli import main

    assert main(["compile", "wien"]) == 0
    assert "not cached (STICHWORT_NO_CACHE is set)" in capsys.readouterr().out
    assert not cache.folder().exists()

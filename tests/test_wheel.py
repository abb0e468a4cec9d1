"""Packaging: a wheel built from the project, installed into a fresh virtual environment and run from
a directory outside the repository, finds its grammar, schema and games inside the installed package
and validates every built-in game.

The wheel is built from a copy of the sources (the build never writes into the checkout). The fresh
environment gets the wheel only; its dependencies (lark, jsonschema, ruamel.yaml, rich) are borrowed
from the environment running the tests through a .pth file, so no package index is needed for them.
Building needs setuptools from the package index (build isolation); if the index cannot be reached
and the running environment has no recent setuptools, the tests are skipped with the reason.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow       # builds and installs a wheel: run after the default run (`pytest -m slow`)

REPO = Path(__file__).resolve().parent.parent
OFFLINE_SIGNS = ("Could not find a version that satisfies", "No matching distribution", "Network is unreachable",
                 "Failed to establish a new connection", "Temporary failure in name resolution",
                 "Max retries exceeded", "ProxyError", "SSLError")


def _run(argv, *, cwd, timeout=300, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONNOUSERSITE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _copy_sources(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "dist", "*.egg-info", ".hypothesis")
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "LICENSE", "setup.cfg", "MANIFEST.in"):
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, dest / name)
    for folder in ("interpreter", "grammar", "games"):
        shutil.copytree(REPO / folder, dest / folder, ignore=ignore)
    return dest


def _build_wheel(src: Path, out: Path) -> Path:
    env = _clean_env()
    result = _run([sys.executable, "-m", "pip", "wheel", src, "--no-deps", "-w", out, "-q"], cwd=src, env=env)
    if result.returncode != 0:
        log = result.stdout + result.stderr
        if not any(sign in log for sign in OFFLINE_SIGNS):
            pytest.fail(f"building the wheel failed:\n{log[-4000:]}")
        # no package index: build with the setuptools at hand, if it is recent enough
        retry = _run([sys.executable, "-m", "pip", "wheel", src, "--no-deps", "--no-build-isolation", "-w", out, "-q"],
                     cwd=src, env=env)
        if retry.returncode != 0:
            try:
                from importlib.metadata import version
                here = f"setuptools {version('setuptools')}"
            except Exception:
                here = "no setuptools"
            pytest.skip("cannot build a wheel here: the package index is unreachable, so pip cannot fetch the build "
                        f"requirements (pyproject.toml [build-system]), and building with the {here} of this "
                        "environment failed too")
    wheels = sorted(out.glob("stichwort-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def _borrowed_paths() -> list[str]:
    """The folders from which the running environment imports the dependencies."""
    paths = []
    for module in ("lark", "jsonschema", "ruamel.yaml", "rich", "referencing", "rpds", "markdown_it", "pygments",
                   "attrs", "jsonschema_specifications", "interegular", "mdurl", "typing_extensions"):
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            continue
        if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
            continue
        top = Path(spec.origin).resolve().parent
        for _ in module.split("."):
            top = top.parent
        if spec.submodule_search_locations is None:           # a single-file module such as typing_extensions
            top = Path(spec.origin).resolve().parent
        if str(top) not in paths and not (top / "interpreter").exists():
            paths.append(str(top))
    return paths


class Installed:
    def __init__(self, root: Path, wheel: Path):
        self.root = root
        self.wheel = wheel
        self.venv = root / "venv"
        bindir = "Scripts" if os.name == "nt" else "bin"
        self.python = self.venv / bindir / ("python.exe" if os.name == "nt" else "python")
        self.command = self.venv / bindir / ("stichwort.exe" if os.name == "nt" else "stichwort")
        self.work = root / "elsewhere"            # a directory outside the repository
        self.work.mkdir()
        self.env = _clean_env()

    def run(self, *argv, timeout=300) -> subprocess.CompletedProcess:
        return _run(argv, cwd=self.work, env=self.env, timeout=timeout)

    def stichwort(self, *argv) -> subprocess.CompletedProcess:
        return self.run(self.command, *argv)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    root = tmp_path_factory.mktemp("wheel")
    assert not root.resolve().is_relative_to(REPO)
    src = _copy_sources(root / "src")
    wheel = _build_wheel(src, root / "dist")
    inst = Installed(root, wheel)
    # the built-in games as they were copied (games are still being added to the checkout)
    inst.games = sorted(p.relative_to(src / "games") for p in (src / "games").rglob("*.stw"))
    inst.modules = sorted(p.relative_to(src).as_posix() for p in (src / "interpreter").rglob("*.py"))
    made = _run([sys.executable, "-m", "venv", "--without-pip", inst.venv], cwd=root, env=inst.env)
    assert made.returncode == 0, made.stderr
    site = inst.run(inst.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    assert site, "the new environment has no site-packages"
    pip = inst.run(sys.executable, "-m", "pip", "--python", inst.python, "install", "--no-deps", "--no-index", "-q",
                   wheel)
    if pip.returncode != 0 and "no such option: --python" in pip.stderr:
        pytest.skip("this pip is older than 22.3 and cannot install into another environment (--python)")
    assert pip.returncode == 0, pip.stdout + pip.stderr
    Path(site, "_borrowed_dependencies.pth").write_text("\n".join(_borrowed_paths()) + "\n", encoding="utf-8")
    inst.site = Path(site).resolve()
    return inst


def test_wheel_holds_the_package_grammar_schema_and_every_game(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert "interpreter/grammar/stichwort.lark" in names
    assert "interpreter/grammar/stichwort.schema.json" in names
    assert installed.games, "no rule files were copied"
    missing_games = [str(g) for g in installed.games if f"interpreter/games/{g.as_posix()}" not in names]
    assert not missing_games, f"rule files not in the wheel: {missing_games}"
    missing_modules = [m for m in installed.modules if m not in names]
    assert not missing_modules, f"modules not in the wheel (a package missing from pyproject.toml?): {missing_modules}"
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "stichwort = interpreter.cli:main" in zipfile.ZipFile(installed.wheel).read(entry).decode()


def test_installed_package_loads_its_files_from_site_packages(installed):
    probe = ("import interpreter, interpreter.resources as r; "
             "print(interpreter.__file__); print(r.grammar_dir()); print(r.games_dir()); "
             "print(len(r.grammar_text()) > 0, r.schema()['type'], len(r.builtin_games()))")
    result = installed.run(installed.python, "-c", probe)
    assert result.returncode == 0, result.stderr
    module, grammar, games, summary = result.stdout.strip().splitlines()
    for shown in (module, grammar, games):
        path = Path(shown).resolve()
        assert path.is_relative_to(installed.site), f"{shown} is not inside {installed.site}"
        assert not path.is_relative_to(REPO)
    assert summary == f"True object {len({g.stem for g in installed.games})}"


def test_installed_command_validates_every_built_in_game(installed):
    result = installed.stichwort("validate")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    lines = result.stdout.splitlines()
    ok = {line.split()[1] for line in lines if line.startswith("ok ")}
    dev = {line.split()[1] for line in lines if line.startswith("dev ")}
    assert ok | dev == {g.stem for g in installed.games} and not ok & dev
    assert ok >= {"wien", "simple", "croatian"}
    tail = f", {len(dev)} in development (not playable yet, see 'dev' lines)" if dev else ""
    assert lines[-1] == f"{len(ok)} valid, 0 invalid{tail}"
    for shown in (line.split()[2] for line in lines if line.startswith("ok ")):
        assert "site-packages" in shown or Path(shown).resolve().is_relative_to(installed.site)


def test_installed_command_explains_wien(installed):
    result = installed.stichwort("explain", "wien")
    assert result.returncode == 0, result.stderr
    assert "Vienna" in result.stdout
    markdown = installed.stichwort("explain", "wien", "--format", "markdown", "-o", "wien.md")
    assert markdown.returncode == 0, markdown.stderr
    assert (installed.work / "wien.md").read_text(encoding="utf-8").startswith("#")


def test_installed_command_converts_and_validates_a_file_here(installed):
    converted = installed.stichwort("convert", "wien-4" if any(g.stem == "wien-4" for g in installed.games) else "wien",
                                    "--to", "yaml", "-o", "mine.yaml")
    assert converted.returncode == 0, converted.stderr
    result = installed.stichwort("validate", "mine.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert installed.stichwort("validate", "no-such-game").returncode == 2
    assert installed.stichwort("schema", "-o", "schema.json").returncode == 0
    assert '"$defs"' in (installed.work / "schema.json").read_text(encoding="utf-8")


def test_installed_engine_plays_and_runs_the_shipped_scenarios(installed):
    simulated = installed.stichwort("simulate", "wien", "--deals", "3", "--seed", "1")
    assert simulated.returncode == 0, simulated.stderr
    scenarios = installed.stichwort("test", "wien")
    assert scenarios.returncode == 0, scenarios.stdout[-3000:] + scenarios.stderr
    assert " 0 failed" in scenarios.stdout
    assert "site-packages" in scenarios.stdout            # the scenario files come from the installed package

"""tokwatch installs like a Python tool: the wheel carries one package, ``tokwatch``, with the page's
files, and runs from any folder (``--version``, ``once``, the page, a static file, the websocket).

The wheel is built as ``pip wheel`` builds it (its build backend, setuptools, comes from the
package index or pip's cache). Without either, pip cannot build offline: then, and only then,
the install test is skipped, and says so.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

from tests.launched import printed_until_ready
from tests.web.test_ws import WsClient

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

# Building the wheel fetches its backend into an isolated environment: ~10 s of CPU, longer on a busy machine.
pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "iota-sample.log"
# What the build reads; the rest of the checkout (tests, .venv, caches) stays out of the copy.
BUILD_INPUTS = ("pyproject.toml", "README.md", "app", "static", "templates")
# pip's words when it cannot fetch the build backend: no index, no network, nothing cached.
OFFLINE = re.compile(r"No matching distribution found for setuptools|Could not find a version that satisfies"
                     r"|NewConnectionError|Temporary failure in name resolution|Network is unreachable", re.IGNORECASE)


def pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def checkout_packages() -> set[str]:
    """What must be installed: app's packages as tokwatch.*, and every folder of static/ and templates/."""
    found = {"tokwatch." + ".".join(p.parent.relative_to(ROOT / "app").parts) if p.parent != ROOT / "app"
             else "tokwatch" for p in (ROOT / "app").rglob("__init__.py")}
    for data in ("static", "templates"):
        for folder in [ROOT / data, *(p for p in (ROOT / data).rglob("*") if p.is_dir())]:
            found.add(".".join(["tokwatch", *folder.relative_to(ROOT).parts]))
    return {name for name in found if "__pycache__" not in name}


def test_every_package_and_page_folder_is_declared() -> None:
    setuptools = pyproject()["tool"]["setuptools"]  # type: ignore[index]
    assert set(setuptools["packages"]) == checkout_packages()  # type: ignore[index]
    assert pyproject()["project"]["scripts"] == {"tokwatch": "tokwatch.cli:main"}  # type: ignore[index]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, source / name)
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
                             "-q", "-w", str(out), str(source)], capture_output=True, text=True, timeout=240,
                            check=False)
    if result.returncode != 0:
        if OFFLINE.search(result.stderr + result.stdout):
            pytest.skip(f"pip cannot build offline here (it fetches setuptools to build): {result.stderr[-300:]}")
        raise AssertionError(f"pip wheel failed:\n{result.stdout}\n{result.stderr}")
    (built,) = out.glob("tokwatch-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv outside the checkout with the wheel installed; returns its ``bin/tokwatch``."""
    prefix = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(prefix)
    python = prefix / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    before = set(os.listdir(site))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "-q", str(wheel)], check=True, timeout=120)
    assert set(os.listdir(site)) - before == {"tokwatch", wheel.name.split("-py3")[0] + ".dist-info"}
    # The dependencies (flask, waitress, …) are made visible from this test's own environment by a
    # .pth file rather than installed: installing them needs the network and a minute or more, and
    # what is under test is what the wheel carries, not pip's resolver.
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return prefix / "bin" / "tokwatch"


def run_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
            "PYTHONUNBUFFERED": "1"}


def test_the_wheel_carries_the_page(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for data in ("static", "templates"):
        for path in (ROOT / data).rglob("*"):
            if path.is_file():
                assert f"tokwatch/{path.relative_to(ROOT)}" in names, path
    assert not any(n.startswith(("app/", "run.py", "tests/")) for n in names)


def test_the_command_runs_from_another_folder(installed: Path, tmp_path: Path) -> None:
    env = run_env(tmp_path)
    version = subprocess.run([str(installed), "--version"], cwd=tmp_path, env=env, capture_output=True, text=True,
                             timeout=60, check=True)
    assert version.stdout == f"tokwatch {pyproject_version()}\n"
    where = subprocess.run([str(installed.parent / "python"), "-c", "import tokwatch; print(tokwatch.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert Path(where.stdout.strip()).is_relative_to(installed.parent.parent)
    once = subprocess.run([str(installed), "once", "--log", str(SAMPLE), "--at", "end", "--json"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60, check=True)
    checkout = subprocess.run([sys.executable, str(ROOT / "run.py"), "--once", "--log", str(SAMPLE), "--at", "end",
                               "--json"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert once.stdout == checkout.stdout
    assert json.loads(once.stdout)["format"] == "iota"


def pyproject_version() -> str:
    text = (ROOT / "app" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'__version__ = "([^"]+)"', text)
    assert match is not None
    return match.group(1)


def test_the_installed_server_serves_the_page_and_the_websocket(installed: Path, tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    log.write_bytes(SAMPLE.read_bytes())
    process = subprocess.Popen([str(installed), "--port", "0", "--log", str(log)], cwd=tmp_path,
                               env=run_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        banner, started = printed_until_ready(process, 30)
        assert started, banner
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", banner).group(1))  # type: ignore[union-attr]
        ws_port = int(re.search(r"websocket on port (\d+)", banner).group(1))  # type: ignore[union-attr]
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{base}/", timeout=10) as page:
            assert page.status == 200
            html = page.read().decode()
        static = re.search(r'/static/[\w.-]+\.js', html)
        assert static is not None, html[:500]
        with urllib.request.urlopen(base + static.group(0), timeout=10) as script:
            assert script.status == 200 and script.read()
        ws = WsClient(f"ws://127.0.0.1:{ws_port}/ws", headers={"Origin": base})
        try:
            message = ws.receive(10)
        finally:
            ws.close()
        assert message is not None
        assert json.loads(message)["source"]["path"] == str(log)
    finally:
        process.terminate()
        process.communicate(timeout=15)

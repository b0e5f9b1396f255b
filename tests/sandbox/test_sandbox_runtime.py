"""One runtime per language under every confining runner (sandbox.runtimes, sandbox/images/build.sh).

A bot sees the same interpreter, libraries and files under bwrap, docker and gvisor, and that is what the
runtime's manifest says; a bot built on numpy plays the same match, decision for decision, under all
three. A missing runtime makes the runners unavailable with the way to build it (and fails these tests on
CI, through ``require``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sandbox_support import BOTS_DIR, HERE, on_ci, ready_runner, require

from arena.engine.rules import preset
from arena.play.referee import BotEntry, MatchResult, MatchSettings, run_match
from sandbox import BotSpec, Limits, Runner, runner_class, runtimes
from sandbox.errors import SandboxUnavailable

ROOT = HERE.parents[1]
RUNNERS = [
    pytest.param("bwrap", marks=pytest.mark.bwrap, id="bwrap"),
    pytest.param("docker", marks=pytest.mark.docker, id="docker"),
    pytest.param("gvisor", marks=[pytest.mark.docker, pytest.mark.gvisor], id="gvisor"),
]


def installed(language: str) -> runtimes.Runtime:
    """This machine's runtime for ``language``; when it is missing the test is skipped (failed on CI)."""
    try:
        return runtimes.find(language)
    except SandboxUnavailable as exc:
        if on_ci():
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))


def report(runner: Runner, spec: BotSpec) -> dict:
    """The one JSON line a report bot prints."""
    conn = runner.start(spec, Limits())
    try:
        return dict(json.loads(conn.readline(60.0)))
    finally:
        conn.close()


def python_report(name: str) -> dict:
    return report(ready_runner(name), BotSpec(BOTS_DIR, ("python3", "runtime_report.py")))


def node_report(name: str) -> dict:
    runner = ready_runner(name, "node")
    return report(runner, BotSpec(HERE / "bots_node", ("node", "runtime_report.js"), language="node"))


def check_interpreter(seen: dict, runtime: runtimes.Runtime) -> None:
    """What a report bot saw of its interpreter is what the runtime's manifest says."""
    for key in ("version", "build", "executable", "abi"):
        assert seen[key] == runtime.interpreter[key], key
    assert seen["manifest"] == runtime.hash
    assert seen["cwd"] == "/bot"


@pytest.mark.parametrize("name", RUNNERS)
def test_a_python_bot_sees_the_runtime_the_manifest_describes(name: str) -> None:
    runtime = installed("python")
    seen = python_report(name)
    check_interpreter(seen, runtime)
    assert [tuple(lib) for lib in seen["libraries"]] == runtime.libraries
    assert ("numpy", seen["numpy"]) in runtime.libraries
    assert seen["lapack"] == 5.0
    assert seen["pip_freeze"] == [
        f"{name}=={version}" for name, version in runtime.libraries if name != "pip"
    ]
    # Only the runtime's libraries, not the host's dist-packages.
    assert seen["site"] == sorted(p.name for p in (runtime.root / "usr/lib/python3/dist-packages").iterdir())


@pytest.mark.parametrize("name", RUNNERS)
def test_a_node_bot_sees_the_runtime_the_manifest_describes(name: str) -> None:
    check_interpreter(node_report(name), installed("node"))


@pytest.mark.bwrap
@pytest.mark.docker
@pytest.mark.gvisor
@pytest.mark.parametrize("language", ["python", "node"])
def test_the_same_bot_file_sees_the_same_runtime_under_every_runner(language: str) -> None:
    make = python_report if language == "python" else node_report
    reports = {name: make(name) for name in ("bwrap", "docker", "gvisor")}
    assert reports["bwrap"] == reports["docker"] == reports["gvisor"]


@pytest.mark.docker
@pytest.mark.parametrize("language", ["python", "node"])
def test_the_docker_image_is_made_of_the_runtime_folder(language: str) -> None:
    import docker

    runtime = installed(language)
    require("docker", language)
    client = docker.from_env(version="auto", timeout=30)
    try:
        labels = client.images.get(runtimes.image_tag(language)).labels
    finally:
        client.close()
    assert runtime.image == runtimes.image_tag(language)
    assert labels[runtimes.HASH_LABEL] == runtime.hash


def numpy_match(name: str, bot_dir: Path) -> MatchResult:
    """The numpy bot against the greedy example, one game of the official rules, under runner ``name``."""
    runner = ready_runner(name)
    examples = ROOT / "bots_examples"

    def connect(folder: Path, script: str) -> BotEntry:
        spec = BotSpec(folder, ("python3", script))
        return BotEntry(script, lambda: runner.start(spec, Limits()))

    bots = [connect(bot_dir, "numpy_bot.py"), connect(examples, "greedy_bot.py")]
    settings = MatchSettings(decision_timeout=5.0, time_bank=10.0, startup_timeout=30.0)
    return run_match(preset("classic"), bots, 20240, settings)


@pytest.fixture(scope="module")
def numpy_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The numpy bot's folder: the bot and the protocol helper."""
    folder = tmp_path_factory.mktemp("numpy-bot")
    shutil.copy(HERE / "bots_runtime" / "numpy_bot.py", folder)
    shutil.copy(ROOT / "bots_examples" / "uno_bot.py", folder)
    return folder


@pytest.mark.parametrize("name", RUNNERS)
def test_a_numpy_bot_plays_a_match(name: str, numpy_bot: Path) -> None:
    runtime = installed("python")
    result = numpy_match(name, numpy_bot)
    assert result.faults == [None, None], result.stderr
    numpy_version = dict(runtime.libraries)["numpy"]
    assert result.names[0] == f"numpy {numpy_version} python {runtime.interpreter['version']}"
    assert "LAPACK says [0.8, 1.4]" in result.stderr[0]
    assert result.decisions > 10


@pytest.mark.bwrap
@pytest.mark.docker
@pytest.mark.gvisor
def test_a_numpy_bot_plays_the_same_match_under_every_runner(numpy_bot: Path) -> None:
    results = {name: numpy_match(name, numpy_bot) for name in ("bwrap", "docker", "gvisor")}
    outcome = {  # every action, in order (think times aside), and the events' digest
        name: (r.names, r.places, r.scores, [d[:2] for d in r.replay["decisions"]], r.replay["events_sha256"])
        for name, r in results.items()
    }
    assert len(outcome["bwrap"][3]) == results["bwrap"].decisions
    assert outcome["bwrap"] == outcome["docker"] == outcome["gvisor"]


def test_a_missing_runtime_makes_bwrap_unavailable_and_says_how_to_build_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(runtimes.RUNTIMES_ENV, str(tmp_path))
    with pytest.raises(SandboxUnavailable, match=r"python-\d+ runtime is not installed.*build\.sh"):
        runtimes.find("python")
    status = runner_class("bwrap").available("python")
    assert not status
    assert "sandbox/images/build.sh" in status.reason


def test_a_runtime_folder_must_match_its_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(runtimes.RUNTIMES_ENV, str(tmp_path))
    name = runtimes.runtime_name("python")
    folder = tmp_path / ("python-" + "0" * 32)
    (folder / runtimes.MANIFEST_PATH).parent.mkdir(parents=True)
    (folder / runtimes.MANIFEST_PATH).write_text(json.dumps({"name": name, "hash": "1" * 32}))
    (tmp_path / name).symlink_to(folder.name)
    with pytest.raises(SandboxUnavailable, match="rebuild"):
        runtimes.find("python")


def test_docker_refuses_an_image_that_is_not_the_runtime_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("docker")
    from sandbox.docker import image_mismatch

    monkeypatch.setenv(runtimes.RUNTIMES_ENV, str(tmp_path))
    assert image_mismatch({}, "python") is None  # no folder here to compare with: the image alone
    name = runtimes.runtime_name("python")
    digest = "a" * 32
    folder = tmp_path / f"python-{digest}"
    (folder / runtimes.MANIFEST_PATH).parent.mkdir(parents=True)
    manifest = {"name": name, "hash": digest, "image": runtimes.image_tag("python")}
    (folder / runtimes.MANIFEST_PATH).write_text(json.dumps(manifest))
    (tmp_path / name).symlink_to(folder.name)
    assert image_mismatch({runtimes.HASH_LABEL: digest}, "python") is None
    reason = image_mismatch({runtimes.HASH_LABEL: "b" * 32}, "python")
    assert reason is not None
    assert "build.sh" in reason

"""The production image (Dockerfile) runs the compiled engine.

The image cannot be built here (its base image is not on this machine), so these tests run the Dockerfile's
own instructions on this machine instead: the engine stage's ``COPY`` and ``RUN`` lines in an empty folder,
with ``python`` on ``PATH`` as in the image, then the final stage's check that refuses to build an image
whose engine is not compiled.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCKERFILE = REPO / "Dockerfile"


def stages() -> dict[str, list[tuple[str, str]]]:
    """The Dockerfile's stages by name (the last one as ``"final"``): their ``(instruction, argument)``
    lines, continuations joined, comments left out."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    found: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        instruction, _, argument = line.strip().partition(" ")
        if instruction.upper() == "FROM":
            current = []
            name = argument.split(" AS ")[-1].strip() if " AS " in argument else "final"
            found[name] = current
        current.append((instruction.upper(), argument.strip()))
    return found


def test_the_engine_stage_pins_mypy_as_the_dev_requirements_do() -> None:
    engine = stages()["engine"]
    pinned = re.search(r"mypy==([0-9.]+)", " ".join(argument for _, argument in engine))
    assert pinned is not None
    wanted = re.search(r"^mypy==([0-9.]+)$", (REPO / "requirements-dev.txt").read_text(), re.MULTILINE)
    assert wanted is not None
    assert pinned.group(1) == wanted.group(1)
    final = stages()["final"]
    assert ("COPY", "--from=engine /src/build/mypyc build/mypyc") in final


def test_the_dockerfiles_steps_build_an_engine_the_image_check_accepts(tmp_path: Path) -> None:
    # The engine stage, step by step: COPY from the repository, RUN with `python` on PATH (the venv's).
    work = tmp_path / "src"
    work.mkdir()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    env.pop("UNO_ARENA_PURE", None)
    ran = 0
    for instruction, argument in stages()["engine"]:
        if instruction == "COPY":
            source, target = argument.split()
            if (REPO / source).is_dir():
                shutil.copytree(REPO / source, work / target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                (work / target).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / source, work / target)
        elif instruction == "RUN" and "build-engine" in argument:
            done = subprocess.run(argument, shell=True, cwd=work, env=env, capture_output=True, text=True)
            assert done.returncode == 0, done.stdout + done.stderr
            ran += 1
    assert ran == 1
    assert (work / "build/mypyc/SOURCES_SHA256").is_file()

    # The final stage's check, run the way the image runs it (the app's folder first on the path).
    check = next(argument for instruction, argument in stages()["final"] if "COMPILED" in argument)
    env["PYTHONPATH"] = str(work)
    accepted = subprocess.run(check, shell=True, cwd=work, env=env, capture_output=True, text=True)
    assert accepted.returncode == 0, accepted.stderr
    refused = subprocess.run(
        check, shell=True, cwd=work, env={**env, "UNO_ARENA_PURE": "1"}, capture_output=True, text=True
    )
    assert refused.returncode != 0
    assert "the engine is not compiled" in refused.stderr
    assert shlex.split(check)[0] == "python"

"""A bot's files compiled to bytecode where they are unpacked (``sandbox.bytecode``): checked-hash .pyc
files that Python uses from a read-only folder, none for what does not compile, and a compiler child that
cannot take the worker's memory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from sandbox import bytecode


def _pyc(folder: Path, name: str) -> Path:
    return folder / "__pycache__" / f"{name}.{sys.implementation.cache_tag}.pyc"


def test_bytecode_is_written_checked_by_hash_and_used(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("def answer():\n    return 42\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from helper import answer\n")
    assert bytecode.precompile(tmp_path)
    for pyc in (_pyc(tmp_path, "helper"), _pyc(tmp_path / "pkg", "__init__")):
        flags = int.from_bytes(pyc.read_bytes()[4:8], "little")
        assert flags == 0b11, "checked-hash (PEP 552): valid whatever the files' times"
    (tmp_path / "helper.py").touch()  # a copy without the times (as staging makes) still uses it
    run = subprocess.run(
        [sys.executable, "-v", "-B", "-c", "import pkg; print(pkg.answer())"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout == "42\n"
    assert f"code object from '{_pyc(tmp_path, 'helper')}'" in run.stderr


def test_an_edited_source_is_compiled_afresh(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("VALUE = 1\n")
    assert bytecode.precompile(tmp_path)
    (tmp_path / "helper.py").write_text("VALUE = 2\n")
    run = subprocess.run(
        [sys.executable, "-B", "-c", "import helper; print(helper.VALUE)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout == "2\n"


def test_what_does_not_compile_gets_no_bytecode(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text("x = 1\n")
    (tmp_path / "bad.py").write_text("def broken(:\n")
    (tmp_path / "deep.py").write_text("x = " + "(" * 5000 + "1" + ")" * 5000 + "\n")
    (tmp_path / "bot.js").write_text("console.log(1)\n")
    assert bytecode.precompile(tmp_path)
    assert _pyc(tmp_path, "good").is_file()
    assert not _pyc(tmp_path, "bad").exists()
    assert not _pyc(tmp_path, "deep").exists()


def test_the_compiler_child_is_limited(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(bytecode, "MEMORY_BYTES", 64 * 1024 * 1024)
    (tmp_path / "small.py").write_text("x = 1\n")
    (tmp_path / "huge.py").write_text("x = [" + "1," * 4_000_000 + "]\n")  # ~1 GB to compile
    bytecode.precompile(tmp_path)  # finished or not, it returns, and the worker is unharmed
    assert not _pyc(tmp_path, "huge").exists()


def test_a_folder_without_python_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "bot.js").write_text("console.log(1)\n")
    assert not bytecode.precompile(tmp_path)
    assert not (tmp_path / "__pycache__").exists()

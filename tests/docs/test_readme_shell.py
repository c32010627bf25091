"""The README's shell examples run: every ``croupier …`` line of its ``sh`` blocks.

Each line is run by bash in a fresh folder holding a link to ``examples/`` (so the PNGs the
examples write land there), with the virtual environment's ``bin`` first on the ``PATH``, as
the README tells a user to do after ``make run``. It must exit 0 and print no traceback;
``--json`` output must be strict JSON, one object per line (or one indented document); and
where the README shows the output after ``# =>``, the output must contain it (spacing aside).

Lines that do not run croupier (``make run``, ``make test``) are left to the Makefile.
Commands too slow for the suite are run shrunk, by the explicit substitutions in ``SHRUNK``;
a substitution that no longer matches its README line fails the test, so the list stays true.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BIN = Path(sys.executable).parent

SHRUNK: dict[str, tuple[str, str]] = {
    # README line (its command) containing ...: (the slow part, run instead as)
    "blackjack simulate --rounds 100000000": ("--rounds 100000000", "--rounds 20000"),
}
"""Slow README commands and how the test shrinks them (100 M rounds take half a minute)."""


@dataclass(frozen=True)
class Example:
    """One shell line of the README: the command, and the output it shows after ``# =>``."""

    line: int
    command: str
    shown: str | None


def _split_comment(text: str) -> tuple[str, str | None]:
    """A shell line's command and its comment (a ``#`` after a blank, outside quotes)."""
    quote = ""
    for i, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].rstrip(), text[i + 1 :].strip()
    return text.rstrip(), None


def readme_examples() -> list[Example]:
    """Every line of the README's ``sh`` blocks that runs croupier."""
    examples = []
    inside = False
    for number, raw in enumerate(README.read_text("utf-8").splitlines(), start=1):
        if raw.startswith("```"):
            inside = raw.strip() == "```sh" if not inside else False
            continue
        if not inside or not raw.strip():
            continue
        command, comment = _split_comment(raw)
        if not re.search(r"(^|\|\s*)croupier\b", command):
            continue
        shown = comment[2:].strip() if comment and comment.startswith("=>") else None
        examples.append(Example(number, command, shown))
    return examples


EXAMPLES = readme_examples()


def _shrunk(command: str) -> str:
    for key, (slow, quick) in SHRUNK.items():
        if key in command:
            assert slow in command, f"SHRUNK entry {key!r} no longer matches: {command}"
            command = command.replace(slow, quick)
    return command


def _run(example: Example, folder: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
    env.pop("CROUPIER_DEBUG", None)
    return subprocess.run(
        ["bash", "-c", "set -o pipefail; " + _shrunk(example.command)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _reject_constant(name: str) -> None:
    raise ValueError(f"not strict JSON: {name}")


def _strict(text: str) -> None:
    """Every line a strict JSON value, or the whole text one (indented) document."""
    try:
        json.loads(text, parse_constant=_reject_constant)
        return
    except ValueError:
        pass
    for line in text.splitlines():
        json.loads(line, parse_constant=_reject_constant)


def _normal(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_has_the_examples_this_test_expects() -> None:
    commands = [e.command for e in EXAMPLES]
    assert len(commands) >= 15
    assert any(c.startswith("printf") and "croupier eval -" in c for c in commands)
    assert any("croupier replay examples/phh/" in c for c in commands)
    assert all(any(key in c for c in commands) for key in SHRUNK), "a SHRUNK entry is stale"
    assert sum(e.shown is not None for e in EXAMPLES) >= 2


def test_every_readme_shell_example_runs(tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda e: (e, _run(e, tmp_path)), EXAMPLES))
    failures = []
    for example, proc in results:
        where = f"README.md line {example.line}: {example.command}"
        if proc.returncode != 0 or "Traceback" in proc.stderr:
            failures.append(f"{where}\n  exit {proc.returncode}: {proc.stderr.strip()[-500:]}")
            continue
        if "--json" in example.command:
            try:
                _strict(proc.stdout)
            except ValueError as exc:
                failures.append(f"{where}\n  {exc}: {proc.stdout[:300]}")
        if example.shown is not None and _normal(example.shown) not in _normal(proc.stdout):
            failures.append(f"{where}\n  shows {example.shown!r}, prints {proc.stdout!r}")
    assert failures == []
    assert (tmp_path / "nz.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "ev.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("line", "command", "comment"),
    [
        ("croupier eval As  # => x", "croupier eval As", "=> x"),
        ("printf 'a # b\\n' | croupier eval -", "printf 'a # b\\n' | croupier eval -", None),
        ('croupier eval "#x" # c', 'croupier eval "#x"', "c"),
    ],
)
def test_comments_are_split_outside_quotes(line: str, command: str, comment: str | None) -> None:
    assert _split_comment(line) == (command, comment)

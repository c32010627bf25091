"""Rule citations in source code: every ``"Omaha 17.6(d)"`` the code writes, checked against the
registry (developer tooling, like :mod:`croupier.rules.coverage`).

A citation is a registry prefix (``Omaha``, ``Draw``, ``Hold'em``, ``Blackjack``,
``Decision``, ``Poker definitions:`` ... taken from the registry's own names) followed by a
rule number. :func:`scan_source` finds them in string literals (f-string parts included) and in
comments; :func:`scan_tree` does every ``.py`` file under a folder. A string that *is* a
citation (an error's rule, a game's ``source``) must be a registry name as written; a citation
inside prose may carry a short note (``"Blackjack 13 (dealer drawing rule)"`` resolves through
``"Blackjack 13"``). Lists such as ``"11.x(c),(d)"`` or ``"17.6(c)-(d)"`` cite each letter. A
citation an f-string completes at run time (``f"Omaha 17.{n}"``) cannot be checked here and
is reported as dynamic.

>>> found = scan_source('raise RuleViolationError("Omaha 17.6(d)", "too much")  # see 17.6(z)\\n')
>>> [(c.line, c.text, c.rule) for c in found]
[(1, 'Omaha 17.6(d)', 'Omaha 17.6(d)')]
>>> [(c.text, c.ok) for c in scan_source('x = "Manila 14.2"  # Poker 11.x(c),(d)')]
[('Manila 14.2', False), ('Poker 11.x(c)', True), ('Poker 11.x(d)', True)]
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from croupier.rules.registry import Registry, UnknownRuleError, load_registry

__all__ = ["Citation", "scan_source", "scan_tree"]

_DEFINITIONS = "Poker definitions:"
_NUMBER = r"\d+(?:\.(?:\d+|x))*\+?(?:-\d+)?(?:\([a-z]{1,4}\))*"
_NOTE = r"(?P<note> \([^()\n]{1,40}\))?"
_MORE = r"(?P<more>(?:\s?(?:,|-|–|/|and|or|&)\s?\([a-z]{1,4}\))*)"


@dataclass(frozen=True, slots=True)
class Citation:
    """One rule citation found in source code.

    >>> c = scan_source("# Draw 11.x(c)")[0]
    >>> c.where, c.text, c.rule, c.comment
    ('<source>:1', 'Draw 11.x(c)', 'Draw 11.x(c)', True)
    """

    path: str
    line: int
    text: str
    """The citation as written (one rule; a list such as ``11.x(c),(d)`` gives several)."""
    rule: str | None
    """The canonical id it resolves to, or ``None`` if the registry has no such name."""
    section: bool = False
    """It names a part of the rules the registry holds rules under (``"Omaha 17.6"``)."""
    whole: bool = False
    """The string literal is this citation and nothing else (an error's rule, a source)."""
    comment: bool = False
    """Found in a comment rather than a string literal."""
    dynamic: bool = False
    """Completed by an f-string at run time, so not checked here (``rule`` is ``None``)."""

    @property
    def where(self) -> str:
        """``path:line``."""
        return f"{self.path}:{self.line}"

    @property
    def ok(self) -> bool:
        """A registry id; or, inside prose, a section of the registry; or dynamic (unchecked).

        >>> [c.ok for c in scan_source('"Omaha 17.6"; "see Omaha 17.6"; "Omaha 17.9(q)"')]
        [False, True, False]
        """
        return self.rule is not None or self.dynamic or (self.section and not self.whole)


@functools.cache
def _pattern(registry: Registry) -> re.Pattern[str]:
    prefixes = set()
    for rule in registry:
        for name in rule.names:
            head = re.match(r"(.+?) \d", name)
            if head and not name.startswith(_DEFINITIONS):
                prefixes.add(head.group(1))
    alternatives = "|".join(
        re.escape(p).replace("'", "['’]") for p in sorted(prefixes, key=len, reverse=True)
    )
    return re.compile(
        rf"(?<![\w'’-])(?:(?P<definitions>{_DEFINITIONS}) (?P<term>[A-Z][\w'’-]*)"
        rf"|(?P<prefix>{alternatives}) (?P<number>{_NUMBER}){_NOTE}{_MORE})"
    )


@functools.cache
def _definition_terms(registry: Registry) -> tuple[str, ...]:
    """Every ``Poker definitions:`` name, longest first."""
    names = {n for rule in registry for n in rule.names if n.startswith(_DEFINITIONS)}
    return tuple(sorted(names, key=len, reverse=True))


def _resolve(registry: Registry, name: str) -> str | None:
    try:
        return registry.get(name).id
    except UnknownRuleError:
        return None


def _is_section(registry: Registry, name: str) -> bool:
    """Whether ``name`` is a part of the rules that registry names continue (``Omaha 17.6``)."""
    if name.startswith(_DEFINITIONS):
        return False
    key = name.casefold()
    return any(
        known.casefold().startswith(key) and known[len(key) : len(key) + 1] in ("(", ".", " ")
        for rule in registry
        for known in rule.names
    )


def _in_text(
    text: str, registry: Registry, *, literal: bool
) -> Iterator[tuple[int, str, str | None, str, bool]]:
    """``(offset, citation, canonical id or None, text after it, whole)`` in one text.

    With ``literal``, a text that is nothing but one citation (``whole``) must be a registry
    name as written.
    """
    stripped = text.strip()
    exact = _resolve(registry, stripped) if literal else None
    if exact is not None and _pattern(registry).match(stripped):
        yield 0, stripped, exact, "", True  # "Blackjack 3.1 as amended": a name as written
        return
    for match in _pattern(registry).finditer(text):
        start, tail = match.start(), text[match.end() :]
        whole = literal and start == 0 and not tail.strip()
        if match["definitions"]:
            rest = text[start:].casefold()
            term = next(
                (
                    name
                    for name in _definition_terms(registry)
                    if rest.startswith(name.casefold())
                    and not rest[len(name) : len(name) + 1].isalpha()
                ),
                None,
            )
            if term is None:
                words = " ".join(text[start:].split()[:3]).rstrip(".,;:)")
                yield start, words, None, tail, False
            else:
                yield start, term, _resolve(registry, term), tail, False
            continue
        prefix, number, note = match["prefix"], match["number"], match["note"] or ""
        base = f"{prefix} {number}"
        if whole and not match["more"]:
            yield 0, stripped, _resolve(registry, stripped), "", True
            continue
        rule = _resolve(registry, base + note) if note else None
        yield start, base, rule or _resolve(registry, base), tail, whole
        section = re.sub(r"(\([a-z]{1,4}\))+$", "", number)
        for letter in re.findall(r"\(([a-z]{1,4})\)", match["more"] or ""):
            extra = f"{prefix} {section}({letter})"
            yield start, extra, _resolve(registry, extra), tail, whole


def _at(node: ast.expr, text: str, offset: int) -> tuple[int, int]:
    """``(line, column)`` of ``offset`` in the string of ``node`` (escapes aside)."""
    lines = text[:offset].count("\n")
    column = offset - text.rfind("\n", 0, offset) - 1 if lines else node.col_offset + offset
    return node.lineno + lines, column


def scan_source(
    source: str, path: str = "<source>", registry: Registry | None = None
) -> list[Citation]:
    """Every rule citation in one Python source text, in line order.

    >>> [(c.text, c.rule) for c in scan_source('"Hold’em 16.6(e)"; f"Omaha 17.{n}"')]
    [('Hold’em 16.6(e)', "Hold'em 16.6(e)"), ('Omaha 17', None)]
    >>> scan_source('f"Omaha 17.{n}"')[0].dynamic
    True
    """
    registry = load_registry() if registry is None else registry
    found: list[tuple[int, int, Citation]] = []

    def cite(at: tuple[int, int], text: str, rule: str | None, **flags: bool) -> None:
        section = rule is None and _is_section(registry, text)
        found.append((*at, Citation(path, at[0], text, rule, section=section, **flags)))

    tree = ast.parse(source, filename=path)
    in_fstring: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = node.values
            for index, part in enumerate(parts):
                if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                    continue
                in_fstring.add(id(part))
                completed = index + 1 < len(parts)  # a {field} follows this part
                for offset, text, rule, tail, _ in _in_text(part.value, registry, literal=False):
                    dynamic = completed and rule is None and re.fullmatch(r"[\w.()+-]*", tail)
                    cite(_at(node, part.value, offset), text, rule, dynamic=bool(dynamic))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in in_fstring
        ):
            for offset, text, rule, _, whole in _in_text(node.value, registry, literal=True):
                cite(_at(node, node.value, offset), text, rule, whole=whole)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            for _, text, rule, _, _ in _in_text(token.string, registry, literal=False):
                cite(token.start, text, rule, comment=True)
    return [citation for *_, citation in sorted(found, key=lambda item: item[:2])]


def scan_tree(root: Path, registry: Registry | None = None) -> list[Citation]:
    """Every rule citation in the ``.py`` files under ``root`` (paths relative to ``root``).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = Path(tmp, "m.py").write_text('ERR = "Blackjack 11.7"\\n')
    ...     [(c.where, c.rule) for c in scan_tree(Path(tmp))]
    [('m.py:1', 'Blackjack 11.7')]
    """
    found: list[Citation] = []
    for path in sorted(Path(root).rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        found += scan_source(path.read_text("utf-8"), path.relative_to(root).as_posix(), registry)
    return found

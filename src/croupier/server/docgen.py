"""Keep the JSON Schema section of ``docs/protocol.md`` generated from the models.

The section between ``<!-- schemas:begin -->`` and ``<!-- schemas:end -->`` is
:func:`schema_section`; ``python -m croupier.server.docgen docs/protocol.md`` rewrites it,
and a test checks that the page is current.

>>> page = "intro\\n<!-- schemas:begin -->\\nold\\n<!-- schemas:end -->\\n"
>>> updated = update_page(page)
>>> updated.startswith("intro\\n<!-- schemas:begin -->\\n### Hello"), update_page(updated) == updated
(True, True)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from croupier.errors import CroupierError
from croupier.server.protocol import schemas

__all__ = ["BEGIN", "END", "schema_section", "update_page"]

BEGIN = "<!-- schemas:begin -->"
"""Where the generated section starts."""
END = "<!-- schemas:end -->"
"""Where it ends."""


def schema_section() -> str:
    """Every model's JSON Schema, one ``###`` heading and one fenced block each.

    >>> schema_section().count("```json")
    20
    """
    parts = []
    for name, schema in schemas().items():
        body = json.dumps(schema, indent=2, sort_keys=True)
        parts.append(f"### {name}\n\n```json\n{body}\n```\n")
    return "\n".join(parts)


def update_page(page: str) -> str:
    """``page`` with its generated section replaced by :func:`schema_section`.

    >>> update_page("no markers")
    Traceback (most recent call last):
    ...
    croupier.errors.CroupierError: the page has no <!-- schemas:begin --> ... <!-- schemas:end --> section
    """
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise CroupierError(f"the page has no {BEGIN} ... {END} section")
    return f"{page[: start + len(BEGIN)]}\n{schema_section()}{page[end:]}"


if __name__ == "__main__":  # pragma: no cover
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/protocol.md")
    target.write_text(update_page(target.read_text()))

"""A number written in plain ASCII digits, as an operator types it in an environment variable.

Python is generous with digits: `"²".isdigit()` and `"٣".isdigit()` are true, and `int("²")`
raises while `int("٣")` is 3. Settings accept "0"-"9" only, read here once.
"""

from __future__ import annotations


def plain_int(text: str) -> int | None:
    """`text` as a whole number when it is made of ASCII digits only; otherwise None."""
    return int(text) if text.isascii() and text.isdigit() else None

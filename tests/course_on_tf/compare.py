"""How a cell's printed output under TensorFlow is compared with the committed one.

Plain Python, no Jupyter and no TensorFlow: `run.py` uses it, and `tests/test_course_on_tf.py`
tests it on small strings.

- What is compared: a code cell's text, as nbval compares it: its stdout, its stderr, the
  `text/plain` of its results and displays (a figure's `<Figure size ...>` line), and an error's
  `Name: message` (not the traceback, whose frames are the library's own). Images and widget
  views are not text; stdout and stderr are compared separately (how the two interleave
  depends on buffering, not on the library).
- Both sides go through the regexes of `notebooks/sanitize.cfg` first, as in nbval.
- A number printed with decimals or an exponent (`0.4358`, `1e-06`) may differ by
  one unit of its last printed digit (of the one printed with fewer digits, if the two differ);
  an integer (a count, a shape, a step; `3.` too) and everything that is not a number must be
  equal.
"""

import configparser
import difflib
import re
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SANITIZE_CFG = ROOT / "notebooks" / "sanitize.cfg"

# A number on its own: not part of a name (`float32`, `dense_1`, `595x255`, `nb00-03`).
NUMBER = re.compile(r"(?<![\w.-])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])")


def read_sanitizers(path=SANITIZE_CFG):
    """[(compiled regex, replacement)] from an nbval sanitize file, in its order."""
    parser = configparser.ConfigParser()
    parser.read(path, encoding="utf-8")
    return [(re.compile(parser[s]["regex"]), parser[s]["replace"]) for s in parser.sections()]


def sanitize(text, sanitizers):
    for regex, replace in sanitizers:
        text = regex.sub(replace, text)
    return text


def cell_text(outputs):
    """A code cell's outputs (nbformat dicts) as one text: stdout, then stderr, then each result
    and display's text/plain, then the error, each part labelled when present."""
    stdout, stderr, rest = [], [], []
    for out in outputs:
        kind = out.get("output_type")
        if kind == "stream":
            (stdout if out.get("name") == "stdout" else stderr).append(joined(out.get("text")))
        elif kind in ("execute_result", "display_data"):
            if "text/plain" in out.get("data", {}):
                rest.append("[result] " + joined(out["data"]["text/plain"]) + "\n")
        elif kind == "error":
            rest.append(f"[error] {out.get('ename')}: {out.get('evalue')}\n")
    parts = ["".join(stdout)]
    if stderr:
        parts.append("[stderr]\n" + "".join(stderr))
    return "".join(parts + rest)


def joined(text):
    return "".join(text) if isinstance(text, list) else (text or "")


def _is_float(token):
    """A decimal fraction or an exponent; `3.` (a sentence's end, or numpy's whole float) is
    compared as written."""
    return bool(re.search(r"\.\d|[eE]", token))


def _unit(token):
    """One unit of the last printed digit of a float token, as a Decimal."""
    return Decimal(1).scaleb(Decimal(token).as_tuple().exponent)


def _pieces(text):
    """text split into [non-number, number, non-number, ..., non-number]."""
    out, last = [], 0
    for m in NUMBER.finditer(text):
        out += [text[last : m.start()], m.group()]
        last = m.end()
    return out + [text[last:]]


def numbers_match(a, b):
    """Two number tokens match: integers exactly (as written), floats within one unit of the
    last printed digit of the less precise one."""
    if not (_is_float(a) and _is_float(b)):
        return a == b
    return abs(Decimal(a) - Decimal(b)) <= max(_unit(a), _unit(b))


def same(expected, got):
    """Do two (sanitized) texts match: equal, but for floats within their printed precision?"""
    if expected == got:
        return True
    pe, pg = _pieces(expected), _pieces(got)
    if len(pe) != len(pg):
        return False
    for i, (e, g) in enumerate(zip(pe, pg)):
        if i % 2 == 0 and e != g:
            return False
        if i % 2 == 1 and not numbers_match(e, g):
            return False
    return True


def agrees_until_it_stops(expected, got):
    """For a cell that is not compared (a SKIP entry) and raised under TF: does what it printed
    before it stopped begin the committed output, line for line (the same way as `same`)? A
    cell that did not raise, or printed nothing, agrees."""
    if "[error] " not in got:
        return True
    printed = got.split("[error] ")[0].split("[stderr]\n")[0].splitlines()
    if not printed:
        return True
    return same("\n".join(expected.splitlines()[: len(printed)]), "\n".join(printed))


def diff(expected, got, limit=20):
    """A short unified diff (committed, then TF) for a report."""
    lines = list(
        difflib.unified_diff(
            expected.splitlines(), got.splitlines(), "committed", "tensorflow", lineterm="", n=1
        )
    )
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
    return "\n".join(lines)


def verdicts(results, listed):
    """The problems of one run: `results` maps (notebook, cell id) to the cell's status, "same",
    "differs" or "differs early" (a SKIP cell that printed something else before it stopped);
    `listed` maps (notebook, cell id) to the reason of each SKIP and DIFFERS entry.

    Returns (unexpected, stale, unknown): cells that differ and are not listed (or differ early),
    listed cells that now print the committed output (the entry is no longer needed), and listed
    cells the run did not see (a cell id that is gone; only for the notebooks that were run)."""
    unexpected = sorted(
        key
        for key, status in results.items()
        if status == "differs early" or (status == "differs" and key not in listed)
    )
    stale = sorted(key for key in listed if results.get(key) == "same")
    notebooks = {nb for nb, _ in results}
    unknown = sorted(key for key in listed if key not in results and key[0] in notebooks)
    return unexpected, stale, unknown

"""Where a notebook gives a predict-then-run answer away before the reader opens its fold.

A reveal cell (tagged `hide-output`) prints what happened: `reveal(my_guess, outcome)` ends its
output with `what happened: <answer>`, after the lines that computed it. The web edition folds
that output, but a cell further down may print the same answer again in plain sight (a
cross-check, the next section's version of the same function): 01 printed `dloss/dw = 12.0000`
just below the fold. `answers(text)` reads, from a reveal's printed output, what gives its
answer away; `repeats(cells)` finds the code cells before the next reveal whose output shows
one. tools/build_site.py folds their outputs too (the learner's edition has no such output:
tools/learner_edition.py empties every cell from the first reveal on);
tests/test_site.py checks in the browser that no answer shows before its fold is opened.
"""

import json
import re
import sys
from pathlib import Path

REVEAL = "hide-output"
_OUTCOME = re.compile(r"what happened: (.*?)(?: -> |$)", re.M)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _number_pattern(number):
    """A number as a cell may print it: 12 as 12, 12.0 or 12.0000; 0.25 as 0.2500."""
    whole, _, decimals = number.partition(".")
    digits = re.escape(whole) + (
        r"\." + re.escape(decimals.rstrip("0")) if decimals.strip("0") else ""
    )
    return rf"(?<![\w.]){digits}(?:\.?0*)(?![\d.]*\d)"


def answers(text):
    """Regular expressions for what gives a reveal's answer away, from its printed output: the
    lines printed before `what happened` (a whole line of at least 12 characters, such as
    `dloss/dw = 12.0000`), and the answer itself when it is specific: a number other than a
    single digit (-2 is, as -2.00), or a shape (a list, printed as a tuple too). A bare 2, a
    None, a word such as "reverse" are printed everywhere for other reasons."""
    found = _OUTCOME.search(text)
    if not found:
        return []
    outcome = found.group(1).strip()
    patterns = [
        re.escape(line.strip())
        for line in text[: found.start()].splitlines()
        if len(line.strip()) >= 12 and "your guess" not in line
    ]
    if outcome.startswith("[") and outcome.endswith("]"):
        inside = re.escape(outcome[1:-1])
        patterns.append(rf"[\[(]{inside}[\])]")
    elif _NUMBER.fullmatch(outcome) and len(outcome) > 1:
        patterns.append(_number_pattern(outcome))
    return patterns


def _text(cell):
    parts = []
    for out in cell.get("outputs", []):
        text = out.get("text") or out.get("data", {}).get("text/plain", "")
        parts.append("".join(text))
    return "".join(parts)


def repeats(cells):
    """[(index of a reveal cell, index of a later code cell whose output shows its answer), ...],
    up to the next reveal."""
    found = []
    for i, cell in enumerate(cells):
        if REVEAL not in cell.get("metadata", {}).get("tags", []):
            continue
        patterns = answers(_text(cell))
        for j in range(i + 1, len(cells)):
            later = cells[j]
            if REVEAL in later.get("metadata", {}).get("tags", []):
                break
            if later["cell_type"] == "code" and any(re.search(p, _text(later)) for p in patterns):
                found.append((i, j))
    return found


if __name__ == "__main__":
    for path in sys.argv[1:]:
        cells = json.loads(Path(path).read_text())["cells"]
        for i, j in repeats(cells):
            print(f"{path}: cell {j} ({cells[j].get('id')}) repeats the answer of cell {i}")

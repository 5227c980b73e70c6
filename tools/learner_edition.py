"""Make the learner's edition of the course: learner/, the notebooks as a learner opens them.

    .venv/bin/python tools/learner_edition.py            # into learner/ (what `make lab` opens)
    .venv/bin/python tools/learner_edition.py DIR        # elsewhere

The notebooks in notebooks/ are committed executed: `make test` compares every output with the
stored one. Opened as they are, each predict-then-run prompt would show its answer right under
the learner's guess, and the cells after it would show it again (a cross-check by hand, the
next section's version of the same function). The learner's edition is a copy of notebooks/ in
which every code cell from the first reveal cell on (the cells tagged `hide-output`, the tag the
web edition folds too) has no output: the notebook opens as read up to its first prompt, and
the rest appears as the learner runs it, which a reveal needs anyway (it runs on what the cells
before it made). (The explanation after a reveal needs no change here: it is folded in the
notebooks themselves, a `<details>` that opens on a click.)

A notebook the learner already has in the edition is never overwritten (it holds their work):
delete it to get a fresh copy. (The self-checks the notebooks import come with minitape:
`minitape.course`.) Binder runs this from binder/postBuild and opens learner/00_index.ipynb.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "notebooks"
REVEAL = "hide-output"


def learner_copy(notebook):
    """The notebook (its JSON) with the outputs of its code cells removed from the first reveal
    cell on."""
    unrun = False
    for cell in notebook["cells"]:
        unrun = unrun or REVEAL in cell.get("metadata", {}).get("tags", [])
        if unrun and cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    return notebook


def make(target):
    made, kept = 0, []
    for path in sorted(SOURCE.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        copy = target / path.relative_to(SOURCE)
        if copy.exists():
            kept.append(copy)
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        notebook = learner_copy(json.loads(path.read_text()))
        copy.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
        made += 1
    print(f"learner's edition in {target}: {made} notebooks copied", end="")
    print(f", {len(kept)} kept as you left them (delete one to start it afresh)" if kept else "")


if __name__ == "__main__":
    make(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "learner")

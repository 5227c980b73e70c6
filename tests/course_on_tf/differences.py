"""The cells of the course whose printed output under TensorFlow is not compared, each with why.

Keyed by notebook and cell id (every cell has a stable id), so that the notebooks themselves carry
nothing for this test. `run.py` still runs every listed cell, and fails when one of them prints
the committed output again: its entry is then no longer needed and must go.

SKIP: cells that use minitape-only tools, which TF does not have (`minitape.viz`, a tape's private
recording `tape._entries`, the home-made tape of 11 checked against minitape's internals).

DIFFERS: cells where TF prints something else, each with what differs and why.
"""

SKIP = {}

DIFFERS = {}

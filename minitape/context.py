"""Per-thread recording state: which tapes are listening right now.

Every op asks one question before doing any bookkeeping: "is any tape or trace listening in
this thread?"  That question is one attribute read on `STATE` (`STATE.now`, the tapes and the
tracer at once), so an op that no tape watches costs (almost) nothing extra. Each thread has
its own stack, as in TensorFlow.
"""

import itertools
import threading


class _State(threading.local):
    def __init__(self):
        self.tapes = []  # active GradientTapes, innermost last
        self.tracer = None  # a minitape.function graph being traced, if any

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name != "now":  # `now`: (tapes, tracer), kept up to date for a single read per op
            super().__setattr__("now", (self.tapes, getattr(self, "tracer", None)))


STATE = _State()


class _NameScope(threading.local):
    """This thread's name scope (`tf.name_scope`), "" or ending in "/": what a new variable's
    name starts with. Kept apart from `STATE`, which every op reads."""

    name = ""


NAME_SCOPE = _NameScope()

# Every tensor and variable gets a unique, increasing id: the tape's name for it.
# Ids (not the objects) are what the tape stores in its "watched" sets, so a tape never
# keeps a tensor alive just by watching it, and creation order is id order.
next_id = itertools.count(1).__next__

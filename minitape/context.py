"""Per-thread recording state: which tapes are listening right now.

Every op asks one question before doing any bookkeeping: "is any tape active in this
thread?"  That question is one attribute read on `STATE`, so an op that no tape watches
costs (almost) nothing extra. Each thread has its own stack, as in TensorFlow.
"""

import itertools
import threading


class _State(threading.local):
    def __init__(self):
        self.tapes = []  # active GradientTapes, innermost last
        self.tracer = None  # a minitape.function graph being traced, if any


STATE = _State()

# Every tensor and variable gets a unique, increasing id: the tape's name for it.
# Ids (not the objects) are what the tape stores in its "watched" sets, so a tape never
# keeps a tensor alive just by watching it, and creation order is id order.
next_id = itertools.count(1).__next__

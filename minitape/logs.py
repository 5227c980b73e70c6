"""minitape's warnings, worded and counted as TF's: the logger "minitape", writing to the
stderr of the moment, and `_log_first_n`, which says a thing the first n times a line of the
learner's program gets there (TF's log_first_n)."""

import logging
import os
import sys


class _StderrHandler(logging.Handler):
    """Writes to whatever sys.stderr is *now* (Jupyter swaps it after import)."""

    def emit(self, record):
        sys.stderr.write(self.format(record) + "\n")


logger = logging.getLogger("minitape")
if not logger.handlers:
    _h = _StderrHandler()
    _h.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    logger.addHandler(_h)
    logger.propagate = False
_log_counts = {}


def _log_first_n(key, n, msg, *args):
    """Log `msg` the first `n` times for each line of the program that gets here (TF's
    log_first_n counts by the calling line: the first frame outside the library)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    key = (key, frame and frame.f_code.co_filename, frame and frame.f_lineno)
    if _log_counts.get(key, 0) < n:
        _log_counts[key] = _log_counts.get(key, 0) + 1
        logger.warning(msg, *args)


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


_deprecated = set()


def _log_deprecated_once(key, what, instructions):
    """TF's deprecation warning (its `deprecated_arg_values(..., warn_once=True)`): said once,
    naming the line of the program that got there first."""
    if key in _deprecated:
        return
    _deprecated.add(key)
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    where = f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame else "<unknown>"
    logger.warning(
        "From %s: %s is deprecated and will be removed in a future version.\n"
        "Instructions for updating:\n%s",
        where,
        what,
        instructions,
    )

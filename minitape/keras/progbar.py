"""`tf.keras.utils.Progbar`: the progress lines `fit`, `evaluate` and `predict` print.

With `verbose=1` (what "auto" means) each step rewrites one line, and the last step of an
epoch ends it; on a terminal or in a notebook that line reads

    3/3 ━━━━━━━━━━━━━━━━━━━━ 0s 2ms/step - loss: 0.4562

(the count in bold, the bar green for the part done and grey for the rest, then the time and
each logged value, averaged over the steps unless it is a "stateful" metric). `verbose=2`
prints only the last line of each epoch, without the bar. The text is Keras 3's, escape codes
included; the times are this machine's.
"""

import math
import sys
import time

import numpy as np

__all__ = ["Progbar"]

_BOLD, _GREEN, _GREY, _END = "\x1b[1m", "\33[32m", "\33[37m", "\x1b[0m"


class Progbar:
    """A progress bar of `target` steps (None if unknown), `width` characters wide."""

    def __init__(
        self,
        target,
        width=20,
        verbose=1,
        interval=0.05,
        stateful_metrics=None,
        stateless_metrics=None,
        unit_name="step",
    ):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError(
                "Only one of `stateful_metrics` or `stateless_metrics` can be provided. "
                "`stateful_metrics` is used to make metrics stateless by default (with an "
                "exclusion list), while `stateless_metrics` is used to make metrics stateful "
                "by default (with an exclusion list)."
            )
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        # a name is averaged over the steps ("stateless") unless listed as stateful, or, when
        # stateless_metrics is given, unless it is not in it (what fit's logger passes: set())
        if stateless_metrics is not None:
            self._averaged = lambda name: name in stateless_metrics
        else:
            stateful = set(stateful_metrics or ())
            self._averaged = lambda name: name not in stateful
        self._values, self._seen_so_far = {}, 0
        self._start = time.time()
        self._last_update = 0
        self._time_after_first_step = None
        self._prev_total_width = 0

    def update(self, current, values=None, finalize=None):
        """Show step `current` with `values`, a list of (name, value for this step)."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or []:
            if self._averaged(name) and not finalize:
                weight = max(current - self._seen_so_far, 1)
                total, count = self._values.get(name, (0, 0))
                self._values[name] = (total + value * weight, count + weight)
            else:
                self._values[name] = (value, 1)
        self._seen_so_far = current
        now = time.time()
        time_per_unit = self._step_duration(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._write_line(current, now, time_per_unit, finalize)
        elif self.verbose == 2 and finalize and self.target:
            count = f"%{int(math.log10(self.target)) + 1}d/%d" % (current, self.target)
            info = f"{count} - {now - self._start:.0f}s -{self._format_time(time_per_unit)}"
            _write(info + self._metrics(verbose2=True) + "\n")
        self._last_update = now

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)

    def _write_line(self, current, now, time_per_unit, finalize):
        message = "\b" * self._prev_total_width + "\r"  # back to the start of the line
        hidden = 0  # the escape codes' characters, which take no room on the screen
        if self.target:
            count = f"%{int(math.log10(self.target)) + 1}d/%d" % (current, self.target)
            bar = f"{_BOLD}{count}{_END} "
            done = int(self.width * current / self.target)
            if done > 0:
                bar += f"{_GREEN}{'━' * done}{_END}"
                hidden += 9
            bar += f"{_GREY}{'━' * (self.width - done)}{_END}"
            hidden += 17
        else:
            bar = "%7d/Unknown" % current
        if self.target and not finalize:
            info = f" {_BOLD}{_eta(time_per_unit * (self.target - current))}{_END}"
        else:
            info = f" {_BOLD}{now - self._start:.0f}s{_END}"
        hidden += 8
        info += self._format_time(time_per_unit) + self._metrics()
        width = len(bar) + len(info) - hidden
        message += bar + info + " " * max(self._prev_total_width - width, 0)
        _write(message + ("\n" if finalize else ""))
        self._prev_total_width = width

    def _metrics(self, verbose2=False):
        text = ""
        for name, (total, count) in self._values.items():
            average = (total if isinstance(total, float) else np.mean(total)) / max(1, count)
            big = average > 1e-3 if verbose2 else abs(average) > 1e-3  # (as Keras, twice)
            text += f" - {name}: {average:.4f}" if big else f" - {name}: {average:.4e}"
        return text

    def _format_time(self, time_per_unit):
        if time_per_unit >= 1 or time_per_unit == 0:
            return f" {time_per_unit:.0f}s/{self.unit_name}"
        if time_per_unit >= 1e-3:
            return f" {time_per_unit * 1000.0:.0f}ms/{self.unit_name}"
        return f" {time_per_unit * 1000000.0:.0f}us/{self.unit_name}"

    def _step_duration(self, current, now):
        """Seconds per step: from the end of the first step on, which is left out (it traces)."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_unit


def _eta(seconds):
    if seconds > 3600:
        return "%d:%02d:%02d" % (seconds // 3600, (seconds % 3600) // 60, seconds % 60)
    if seconds > 60:
        return "%d:%02d" % (seconds // 60, seconds % 60)
    return "%ds" % seconds


def _write(message):
    sys.stdout.write(message)
    sys.stdout.flush()

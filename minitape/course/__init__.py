"""The course's self-checks, shipped with minitape so that a notebook runs wherever it is opened
(downloaded alone, or in Colab: its setup cell installs minitape, and these come with it).

    from minitape.course import check, reveal

Not part of TensorFlow's API: the course's own, as `minitape.explain` and `minitape.viz` are.
See `checks.py`.
"""

from .checks import check, check_backward, check_record, fingerprint, is_correct, reveal

__all__ = ["check", "reveal", "is_correct", "fingerprint", "check_record", "check_backward"]

"""Golden cases for what notebook 11 (build your own tape) says about TensorFlow: each function
records one claim the notebook makes (names course_nb11_...)."""

import numpy as np  # noqa: F401

from .cases import attempt, case, derivatives  # noqa: F401

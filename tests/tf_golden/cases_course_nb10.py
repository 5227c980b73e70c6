"""Golden cases for what notebook 10 (forward mode, Jacobians and vector-Jacobian products) says
about TensorFlow: each function records one claim the notebook makes (names course_nb10_...)."""

import numpy as np  # noqa: F401

from .cases import attempt, case, derivatives  # noqa: F401

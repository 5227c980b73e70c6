"""`tf.data`: input pipelines (to come)."""


class Dataset:
    pass

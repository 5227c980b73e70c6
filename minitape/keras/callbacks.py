"""`tf.keras.callbacks.History`: what `model.fit` returns.

`history.history` is a dict from each logged name ('loss', and any metric's name) to a list
with one Python float per epoch: the value the logs had at the end of that epoch.
`history.epoch` lists the epoch numbers (from 0), `history.params` how fit was run.
(minitape has no other callbacks: `fit(callbacks=...)` is refused.)
"""

__all__ = ["History"]


class History:
    def __init__(self):
        self.history = {}
        self.epoch = []
        self.params = {}
        self.model = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self  # (as Keras: the model keeps its latest History)

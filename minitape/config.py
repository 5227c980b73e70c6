"""`tf.config`: how `minitape.function` runs (eagerly, for debugging, or replaying graphs), and
the devices there are: minitape computes with numpy, on one CPU."""

import collections

from .function import functions_run_eagerly, run_functions_eagerly  # noqa: F401

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])


def list_physical_devices(device_type=None):
    """[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')], as TF lists a
    machine without a GPU; [] for any other device type ('GPU', 'TPU')."""
    if device_type not in (None, "CPU"):
        return []
    return [PhysicalDevice("/physical_device:CPU:0", "CPU")]


def list_logical_devices(device_type=None):
    if device_type not in (None, "CPU"):
        return []
    return [LogicalDevice("/device:CPU:0", "CPU")]

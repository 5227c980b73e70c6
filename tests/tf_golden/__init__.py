"""The golden record: cases run under real TensorFlow 2.21 (record.py), replayed against minitape
(test_golden.py). See README.md in this directory."""

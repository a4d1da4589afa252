# SPDX-License-Identifier: GPL-2.0-only
"""Replication statistics shared by the sweep scripts: the mean of N runs and the half-width of
its 95 % confidence interval (Student's t, N - 1 degrees of freedom)."""

# Student's t, 97.5th percentile, by degrees of freedom (1..30); 1.96 beyond.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def mean_ci95(values):
    """(mean, half-width of the 95 % confidence interval of the mean; 0 for one value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    t = T975[n - 2] if n - 1 <= len(T975) else 1.96
    return mean, t * (var / n) ** 0.5

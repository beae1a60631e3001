"""The service's vocabulary: games as stored, outcomes, times and durations, options, config.

No I/O beyond reading the config file; everything above builds on these.
"""

"""Pure, deterministic rules engines: standard library only, no clock, no I/O."""

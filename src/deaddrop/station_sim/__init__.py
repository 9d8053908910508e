"""Station balance simulation: bots play whole games; win rates, intervals and speed."""

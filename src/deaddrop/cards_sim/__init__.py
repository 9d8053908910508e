"""The Cards simulator and bench: bots play many games; win rates, intervals and speed."""

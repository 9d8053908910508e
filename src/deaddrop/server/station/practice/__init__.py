"""Practice games: one person (an account or a guest) against bots, started at once, on a quick
clock (the Pouch leaves as soon as the person is done), played to the end in minutes."""

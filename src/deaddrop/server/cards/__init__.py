"""Cards on the web: tables of 2–4 seats (friends, guests, bots), played live over SSE."""

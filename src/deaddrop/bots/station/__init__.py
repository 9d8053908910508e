"""Station bots: each decides a day's saves from one seat's view."""

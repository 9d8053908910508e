"""Dead Drop: two spy games (Station and Cards), their engines, bots and web app."""

__version__ = "0.1.0"

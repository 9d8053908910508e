"""Pages that belong to no one area: home, How to play."""

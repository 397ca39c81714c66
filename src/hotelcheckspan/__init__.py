"""HotelCheckSpan compendium: load factgenie annotation exports and compute the paper's analyses."""

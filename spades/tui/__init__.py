"""Playing in the terminal: the console, the texts and the game loop of ``spades play``."""

"""ArtemisKit examples (a package only so that example modules import by name)."""

"""What people look at: HTML reports, plots, and the game at the terminal."""

"""Pure shape mathematics: dims and intervals, broadcasting rules, bounded integer values; imports nothing else of irvalidate."""

"""Test data: the bot club that plays legal deals (simulate), the tamperer that corrupts
some of them on purpose and says where the validator must find each corruption, and a
tile deal's score-sheet version."""

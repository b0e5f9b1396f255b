"""Running matches: the bot protocol, one bot's link and clock, the referee, in-process play and the CLI."""

"""Search AI: double-dummy solving, sampled deals and the search bot."""

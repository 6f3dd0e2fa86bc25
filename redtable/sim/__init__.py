"""Simulations, tournaments and statistics over many games."""
